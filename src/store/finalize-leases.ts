import { Prisma } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";
import { leaseFree } from "./leases.js";
import { isOpen, isStarted, stateValue } from "./purchase-guards.js";
import { UNHURRIED_COMMIT } from "./unhurried-commit.js";

// DESIGN 3: the platform expects one FinalizeTxn per order, so the capture of an order
// is serialised across completes, sweepers and replicas by a lease on the purchase row, held
// around the platform call only (never a transaction across it). The lease is judged on the
// database's clock, the one clock every replica shares.

/** The lease this caller holds, given back with releaseLease(db, "capture", lease) (leases.ts). */
export type FinalizeLease = { id: string; heldUntil: string };

/**
 * Marks the purchase AUTHORIZED (the platform approved it) and takes the capture lease for
 * `leaseMs`, in one statement: only from a non-final state and only while no other caller holds
 * an unexpired lease. Undefined when the purchase has ended or another caller is capturing it.
 * The platform's transaction id, from the QueryTxn that found the order approved, is recorded
 * with it unless a caller recorded it before (the begin records it when InitTxn answers; this
 * covers a begin whose record was lost).
 * It commits without waiting for its WAL flush (UNHURRIED_COMMIT): a database crash that loses it
 * leaves the purchase as the begin left it, durably (its opening waited for its flush), and every
 * caller asks QueryTxn before it captures, so an order captured meanwhile is credited, not
 * captured again (a second FinalizeTxn refused is asked again too; that state is the one
 * test/purchase/settlement.test.ts heals, "a crash between FinalizeTxn and the credit"). The
 * lease serialises callers while the database runs; it need not outlive a crash of it.
 */
export async function claimFinalize(
  // Not a transaction's client: the unhurried commit would be the whole transaction's.
  db: DbClient,
  options: { purchaseId: string; transId: string; now: Date; leaseMs: number },
): Promise<FinalizeLease | undefined> {
  const rows = await db.$queryRaw<{ held_until: string }[]>`
    WITH ${UNHURRIED_COMMIT}
    UPDATE purchases
       SET state = ${stateValue("AUTHORIZED")},
           trans_id = COALESCE(trans_id, ${options.transId}),
           update_time = CASE WHEN ${isStarted()} THEN ${options.now} ELSE update_time END,
           finalize_until = now() + ${options.leaseMs}::int * interval '1 millisecond'
      FROM unhurried
     WHERE id = ${options.purchaseId}
       AND ${isOpen()}
       AND ${leaseFree("capture", Prisma.sql`now()`)}
    RETURNING finalize_until::text AS held_until`;
  const row = rows[0];
  return row ? { id: options.purchaseId, heldUntil: row.held_until } : undefined;
}
