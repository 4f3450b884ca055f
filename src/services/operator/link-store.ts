import { findLink, type LinkRow, type SettlementRow } from "../../store/links.js";
import type { Db } from "../../store/open-database.js";

/** The link with its new limit, or null when the account has no such link. */
export async function setOutstandingLimit(
  db: Db,
  change: { accountId: string; linkId: string; limitNanos: bigint; now: Date },
): Promise<LinkRow | null> {
  const { count } = await db.distributorLink.updateMany({
    where: { id: change.linkId, accountId: change.accountId },
    data: { outstandingLimitNanos: change.limitNanos, version: { increment: 1 }, updateTime: change.now },
  });
  return count === 0 ? null : findLink(db, change.accountId, change.linkId);
}

export interface NewSettlement {
  id: string;
  accountId: string;
  linkId: string;
  amountNanos: bigint;
  reference: string;
  requestId: string | null;
  createTime: Date;
}

export type SettlementOutcome =
  | { kind: "recorded"; settlement: SettlementRow }
  | { kind: "noLink" }
  | { kind: "exceeds"; outstandingNanos: bigint };

class Rollback extends Error {
  constructor(readonly outcome: SettlementOutcome) {
    super("settlement rolled back");
  }
}

/**
 * Records a settlement and lowers the link's outstanding by its amount in one transaction.
 * The decrement is conditional on enough outstanding (never below zero, even against a
 * concurrent settlement) and holds the link's row lock until commit, so a concurrent call with
 * the same request_id waits, then fails on the unique index and rolls back its decrement.
 */
export async function recordSettlement(db: Db, input: NewSettlement): Promise<SettlementOutcome> {
  const { accountId, ...settlement } = input;
  try {
    return await db.$transaction(async (tx) => {
      const { count } = await tx.distributorLink.updateMany({
        where: { id: input.linkId, accountId, outstandingNanos: { gte: input.amountNanos } },
        data: {
          outstandingNanos: { decrement: input.amountNanos },
          version: { increment: 1 },
          updateTime: input.createTime,
        },
      });
      if (count === 0) {
        const link = await tx.distributorLink.findFirst({ where: { id: input.linkId, accountId } });
        throw new Rollback(link ? { kind: "exceeds", outstandingNanos: link.outstandingNanos } : { kind: "noLink" });
      }
      const row = await tx.settlement.create({ data: settlement });
      return { kind: "recorded", settlement: row } as const;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.outcome;
    throw error;
  }
}

export function findSettlementByRequestId(
  db: Db,
  requestId: string,
): Promise<(SettlementRow & { link: { accountId: string } }) | null> {
  return db.settlement.findUnique({ where: { requestId }, include: { link: { select: { accountId: true } } } });
}
