import { Prisma } from "../../gen/prisma/client.js";

interface AdapterCause {
  originalCode?: string;
  kind?: string;
}

/**
 * Whether a write failed on a foreign key: Prisma's own queries report P2003; a raw query
 * through a driver adapter reports P2010 carrying the database's code (PostgreSQL 23503).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2003") return true;
  const meta = error.meta as { driverAdapterError?: { cause?: AdapterCause } } | undefined;
  const cause = meta?.driverAdapterError?.cause;
  return error.code === "P2010" && (cause?.originalCode === "23503" || cause?.kind === "ForeignKeyConstraintViolation");
}
