import type { DbClient, InTransaction } from "./db-client.js";
import type { SettlementRow } from "./links.js";
import type { Db } from "./open-database.js";

// Settlements: what an account paid for credit already issued, recorded by the operator.

export interface NewSettlement extends SettlementRow {
  accountId: string;
}

export type SettlementOutcome =
  | { kind: "recorded"; settlement: SettlementRow }
  | { kind: "noLink" }
  | { kind: "exceeds"; outstandingNanos: bigint };

/**
 * Records a settlement and lowers the link's outstanding by its amount in one transaction.
 * The decrement is conditional on enough outstanding (never below zero, even against a
 * concurrent settlement) and holds the link's row lock until commit, so a concurrent call with
 * the same request_id waits, then fails on the unique index and rolls back its decrement.
 * When the decrement matches nothing, nothing was written and the transaction ends empty.
 */
export function recordSettlement(
  db: Db,
  input: NewSettlement,
  inTransaction?: InTransaction<SettlementRow>,
): Promise<SettlementOutcome> {
  const { accountId, ...settlement } = input;
  return db.$transaction(async (tx): Promise<SettlementOutcome> => {
    const { count } = await tx.distributorLink.updateMany({
      where: { id: input.linkId, accountId, outstandingNanos: { gte: input.amountNanos } },
      data: {
        outstandingNanos: { decrement: input.amountNanos },
        version: { increment: 1 },
        updateTime: input.createTime,
      },
    });
    if (count === 0) {
      const link = await tx.distributorLink.findFirst({
        where: { id: input.linkId, accountId },
        select: { outstandingNanos: true },
      });
      return link ? { kind: "exceeds", outstandingNanos: link.outstandingNanos } : { kind: "noLink" };
    }
    const row = await tx.settlement.create({ data: settlement });
    await inTransaction?.(tx, row);
    return { kind: "recorded", settlement: row };
  });
}

export function findSettlementByRequestId(
  db: DbClient,
  requestId: string,
): Promise<(SettlementRow & { link: { accountId: string } }) | null> {
  return db.settlement.findUnique({ where: { requestId }, include: { link: { select: { accountId: true } } } });
}
