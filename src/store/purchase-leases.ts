import { Prisma } from "../../gen/prisma/client.js";
import { takeDueLeases } from "./leases.js";
import type { Db } from "./open-database.js";
import { isOpen } from "./purchase-guards.js";

/**
 * Takes a batch of unsettled purchases for one sweeper replica (DESIGN 2, src/jobs/job.ts), each
 * leased until `leaseUntil` (also when it is next looked at); the sweeper renews a purchase's
 * lease (leases.ts, "sweep") before it works it. The credit itself stays conditional, so a lease
 * that runs out mid-settlement still credits once.
 */
export async function leaseDuePurchases(
  db: Db,
  options: {
    now: Date;
    /** Only purchases begun at or before this are due (the game had its chance to complete). */
    dueBefore: Date;
    leaseUntil: Date;
    limit: number;
  },
): Promise<string[]> {
  const rows = await takeDueLeases<{ id: string }>(db, "sweep", {
    now: options.now,
    until: options.leaseUntil,
    due: Prisma.sql`${isOpen()} AND create_time <= ${options.dueBefore}`,
    orderBy: Prisma.sql`create_time`,
    limit: options.limit,
    returning: Prisma.sql`id`,
  });
  return rows.map((row) => row.id);
}
