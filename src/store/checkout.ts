import { randomUUID } from "node:crypto";
import type { CheckoutSession, Prisma } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";
import type { Db } from "./open-database.js";

// Checkout sessions: credit bought through the payment provider, for a top-up-only project or
// for the account (spec 4.6, "Related"). Completion credits exactly once: the session moves
// OPEN -> COMPLETE in the same transaction as the credit, and the ledger entry is unique per
// session.

export type CheckoutRow = CheckoutSession;

export type NewCheckout = Omit<CheckoutRow, "state">;

/**
 * Opens a session; a retry with the same request id gets the first session back instead of
 * a second one (undefined when the request id belongs to another account).
 */
export async function insertCheckoutSession(db: Db, row: NewCheckout): Promise<CheckoutRow | undefined> {
  if (row.requestId !== null) {
    const inserted = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO checkout_sessions (id, account_id, project_id, amount_nanos, checkout_url, request_id, create_time)
      VALUES (${row.id}, ${row.accountId}, ${row.projectId}, ${row.amountNanos}, ${row.checkoutUrl}, ${row.requestId},
              ${row.createTime})
      ON CONFLICT (request_id) DO NOTHING
      RETURNING id`;
    const existing = await db.checkoutSession.findUnique({ where: { requestId: row.requestId } });
    if (inserted.length === 0 && existing?.accountId !== row.accountId) return undefined;
    return existing ?? undefined;
  }
  return db.checkoutSession.create({ data: row });
}

/** The session a request id opened, whichever account it belongs to (request ids are unique). */
export function findCheckoutByRequestId(db: DbClient, requestId: string): Promise<CheckoutRow | null> {
  return db.checkoutSession.findUnique({ where: { requestId } });
}

export function findCheckoutSession(db: DbClient, accountId: string, id: string): Promise<CheckoutRow | null> {
  return db.checkoutSession.findFirst({ where: { id, accountId } });
}

/**
 * Moves every session still OPEN and opened before `openedBefore` to EXPIRED; how many. The
 * write is conditional on OPEN, so a payment completing at the same moment either wins (and the
 * session stays COMPLETE) or finds it EXPIRED and credits nothing.
 */
export async function expireCheckoutSessions(db: DbClient, options: { openedBefore: Date }): Promise<number> {
  const { count } = await db.checkoutSession.updateMany({
    where: { state: "OPEN", createTime: { lt: options.openedBefore } },
    data: { state: "EXPIRED" },
  });
  return count;
}

export type CheckoutCompletion = "credited" | "alreadyComplete" | "expired" | "absent";

/**
 * The payment provider says the session was paid: credit its project (a DEVELOPER_TOP_UP entry
 * and the balance up) or its account, once. Concurrent or repeated completions find the session
 * no longer OPEN and credit nothing.
 */
export function completeCheckoutSession(db: Db, options: { id: string; now: Date }): Promise<CheckoutCompletion> {
  return db.$transaction(async (tx) => {
    const opened = await tx.$queryRaw<{ account_id: string; project_id: string | null; amount_nanos: bigint }[]>`
      UPDATE checkout_sessions SET state = 'COMPLETE'
       WHERE id = ${options.id} AND state = 'OPEN'
      RETURNING account_id, project_id, amount_nanos`;
    const session = opened[0];
    if (!session) return stateOf(tx, options.id);
    const amountNanos = BigInt(session.amount_nanos);
    if (session.project_id === null) {
      await tx.account.update({ where: { id: session.account_id }, data: { creditNanos: { increment: amountNanos } } });
      return "credited";
    }
    await tx.ledgerEntry.create({
      data: {
        id: randomUUID(),
        projectId: session.project_id,
        type: "DEVELOPER_TOP_UP",
        amountNanos,
        checkoutSessionId: options.id,
        createTime: options.now,
      },
    });
    await tx.project.update({ where: { id: session.project_id }, data: { balanceNanos: { increment: amountNanos } } });
    return "credited";
  });
}

async function stateOf(tx: Prisma.TransactionClient, id: string): Promise<CheckoutCompletion> {
  const row = await tx.checkoutSession.findUnique({ where: { id }, select: { state: true } });
  if (!row) return "absent";
  return row.state === "EXPIRED" ? "expired" : "alreadyComplete";
}
