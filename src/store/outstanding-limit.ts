import type { DbClient } from "./db-client.js";
import { findLink, type LinkRow } from "./links.js";

/** Sets a link's outstanding limit (spec 8); the link with its new limit, or null when the account has no such link. */
export async function setOutstandingLimit(
  db: DbClient,
  change: { accountId: string; linkId: string; limitNanos: bigint; now: Date },
): Promise<LinkRow | null> {
  const { count } = await db.distributorLink.updateMany({
    where: { id: change.linkId, accountId: change.accountId },
    data: { outstandingLimitNanos: change.limitNanos, version: { increment: 1 }, updateTime: change.now },
  });
  return count === 0 ? null : findLink(db, change.accountId, change.linkId);
}
