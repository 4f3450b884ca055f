import { Prisma } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";

// Row leases (DESIGN 2, docs/deploy.md): a row is worked by the one replica whose lease on it has
// not run out. A lease is a time in a column, not a lock: rows are taken with FOR UPDATE SKIP
// LOCKED, so replicas taking at once skip each other's, and a crashed holder's lease runs out.
// The time a holder took is its proof: it renews and releases the lease only while the column
// still holds that time, so a holder overtaken (its lease ran out, another took the row) writes
// nothing. A lease holds while its time is after `now`, and has run out from that time on.
// `now` is the caller's clock, the same for every caller of one lease (the jobs' injected clock;
// the capture lease is judged on the database's, finalize-leases.ts).

/** Every leased table and its lease column: the only identifiers these statements are built with. */
const LEASES = {
  sweep: ["purchases", "lease_until"], // the settlement sweeper's (purchase-leases.ts)
  capture: ["purchases", "finalize_until"], // around FinalizeTxn (finalize-leases.ts)
  reconcile: ["distributor_links", "reconcile_lease_until"], // a reconciliation pass's
  verify: ["campaigns", "verify_lease_until"], // the verification job's
  delivery: ["webhook_deliveries", "lease_until"], // a webhook attempt's (webhook-delivery-attempts.ts)
} as const;

export type LeaseKind = keyof typeof LEASES;

function identifiers(kind: LeaseKind) {
  const [table, column] = LEASES[kind];
  return { table: Prisma.raw(table), column: Prisma.raw(column) };
}

/** Nobody holds the row's lease at `now`: never taken, released, or run out. */
export function leaseFree(kind: LeaseKind, now: Date | Prisma.Sql): Prisma.Sql {
  const { column } = identifiers(kind);
  return Prisma.sql`(${column} IS NULL OR ${column} <= ${now})`;
}

/** Somebody holds the row's lease at `now`. */
export function leaseHeld(kind: LeaseKind, now: Date): Prisma.Sql {
  return Prisma.sql`${identifiers(kind).column} > ${now}`;
}

export interface TakeDue {
  now: Date;
  /** The lease taken: no other caller takes these rows until then. */
  until: Date;
  /** The table's own condition on the rows due (their state, their times). */
  due: Prisma.Sql;
  /** The order rows are taken in (which come first under `limit`). */
  orderBy?: Prisma.Sql;
  limit?: number;
  /** The columns read back from the rows taken. */
  returning: Prisma.Sql;
  /** A WITH list `due` reads from (the webhook delivery lease's fairness). */
  with?: Prisma.Sql;
}

/** Takes the lease of up to `limit` due rows whose lease is free, skipping rows another caller is taking. */
export function takeDueLeases<Row>(db: DbClient, kind: LeaseKind, options: TakeDue): Promise<Row[]> {
  const { table, column } = identifiers(kind);
  const { orderBy, limit } = options;
  return db.$queryRaw<Row[]>`
    ${options.with ? Prisma.sql`WITH ${options.with}` : Prisma.empty}
    UPDATE ${table} SET ${column} = ${options.until}
     WHERE id IN (
       SELECT id FROM ${table}
        WHERE ${options.due} AND ${leaseFree(kind, options.now)}
        ${orderBy ? Prisma.sql`ORDER BY ${orderBy}` : Prisma.empty}
        ${limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit}::int`}
        FOR UPDATE SKIP LOCKED)
    RETURNING ${options.returning}`;
}

/** Takes the lease of one row unless another caller holds it; undefined when it is held or absent. */
export async function takeLease<Row>(
  db: DbClient,
  kind: LeaseKind,
  options: { id: string; now: Date; until: Date; returning: Prisma.Sql },
): Promise<Row | undefined> {
  const { table, column } = identifiers(kind);
  const rows = await db.$queryRaw<Row[]>`
    UPDATE ${table} SET ${column} = ${options.until}
     WHERE id = ${options.id} AND ${leaseFree(kind, options.now)}
    RETURNING ${options.returning}`;
  return rows[0];
}

/** A lease its holder works under: renewed while it is still its own, given back at the end. */
export interface HeldLease {
  /**
   * Extends the lease to `leaseMs` from now while the column still holds the time last taken and
   * it has not run out; false once it ran out or another caller took it.
   */
  renew(): Promise<boolean>;
  /** Gives it back, unless it ran out and another caller took it; `also` sets more of the row. */
  release(also?: Prisma.Sql): Promise<void>;
}

export function holdLease(
  db: DbClient,
  kind: LeaseKind,
  lease: { id: string; heldUntil: Date; now: () => Date; leaseMs: number },
): HeldLease {
  const { table, column } = identifiers(kind);
  let heldUntil = lease.heldUntil;
  return {
    async renew() {
      const now = lease.now();
      const until = new Date(now.getTime() + lease.leaseMs);
      const renewed = await db.$executeRaw`
        UPDATE ${table} SET ${column} = ${until}
         WHERE id = ${lease.id} AND ${column} = ${heldUntil} AND ${leaseHeld(kind, now)}`;
      if (renewed === 1) heldUntil = until;
      return renewed === 1;
    },
    release: (also) => releaseLease(db, kind, { id: lease.id, heldUntil, also }),
  };
}

/** Gives a lease back (HeldLease.release); `heldUntil` as text keeps a database time's microseconds. */
export async function releaseLease(
  db: DbClient,
  kind: LeaseKind,
  options: { id: string; heldUntil: Date | string; also?: Prisma.Sql },
): Promise<void> {
  const { table, column } = identifiers(kind);
  await db.$executeRaw`
    UPDATE ${table} SET ${column} = NULL${options.also ? Prisma.sql`, ${options.also}` : Prisma.empty}
     WHERE id = ${options.id} AND ${column} = ${options.heldUntil}::timestamptz`;
}
