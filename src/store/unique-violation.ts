import { Prisma } from "../../gen/prisma/client.js";

interface AdapterCause {
  originalCode?: string;
  kind?: string;
}

/**
 * Whether a write failed on a unique constraint: a duplicate, not a fault. Prisma's own
 * queries report P2002; a raw query through a driver adapter reports P2010 carrying the
 * database's code (PostgreSQL 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const meta = error.meta as { driverAdapterError?: { cause?: AdapterCause } } | undefined;
  const cause = meta?.driverAdapterError?.cause;
  return error.code === "P2010" && (cause?.originalCode === "23505" || cause?.kind === "UniqueConstraintViolation");
}
