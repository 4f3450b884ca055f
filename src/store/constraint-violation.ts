import { Prisma } from "../../gen/prisma/client.js";

// Whether a write failed on a constraint: a duplicate or a vanished parent, not a fault.
// Prisma's own queries report P2002 (unique) or P2003 (foreign key); a raw query through a
// driver adapter reports P2010 carrying the database's code (PostgreSQL 23505, 23503).

export type Constraint = "unique" | "foreign key";

const CODES: Record<Constraint, { prisma: string; postgres: string; kind: string }> = {
  unique: { prisma: "P2002", postgres: "23505", kind: "UniqueConstraintViolation" },
  "foreign key": { prisma: "P2003", postgres: "23503", kind: "ForeignKeyConstraintViolation" },
};

interface AdapterCause {
  originalCode?: string;
  kind?: string;
}

export function violates(error: unknown, constraint: Constraint): boolean {
  const codes = CODES[constraint];
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === codes.prisma) return true;
  const meta = error.meta as { driverAdapterError?: { cause?: AdapterCause } } | undefined;
  const cause = meta?.driverAdapterError?.cause;
  return error.code === "P2010" && (cause?.originalCode === codes.postgres || cause?.kind === codes.kind);
}
