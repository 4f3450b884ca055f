import { Prisma } from "../../gen/prisma/client.js";

/** Whether a write failed on a unique constraint (Prisma P2002): a duplicate, not a fault. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
