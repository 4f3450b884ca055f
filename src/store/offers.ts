import { type Offer, Prisma } from "../../gen/prisma/client.js";
import { violates } from "./constraint-violation.js";
import { type KeysetPageRequest, keysetPage, type Paged } from "./keyset-page.js";
import type { ConditionalWrite } from "./links.js";
import type { Db } from "./open-database.js";

// Offers of a campaign (spec 2.6, 3.3). Purchases copy price and credit when they begin, so
// nothing here ever touches a purchase: a new price applies to purchases begun afterwards.

export type OfferRow = Offer;

export interface NewOffer extends Omit<OfferRow, "version" | "createTime" | "updateTime"> {
  now: Date;
}

export function insertOffer(db: Db, offer: NewOffer): Promise<OfferRow> {
  const { now, ...data } = offer;
  return db.offer.create({ data: { ...data, createTime: now, updateTime: now } });
}

/** The offer an earlier create with `requestId` made in the campaign. */
export function findOfferByRequest(db: Db, campaignId: string, requestId: string): Promise<OfferRow | null> {
  return db.offer.findUnique({ where: { campaignId_requestId: { campaignId, requestId } } });
}

/** The offer, when its campaign belongs to the account. */
export function findOffer(
  db: Db,
  name: { accountId: string; campaignId: string; offerId: string },
): Promise<OfferRow | null> {
  return db.offer.findFirst({
    where: { id: name.offerId, campaignId: name.campaignId, campaign: { accountId: name.accountId } },
  });
}

export function listOffers(db: Db, campaignId: string, page: KeysetPageRequest): Promise<Paged<OfferRow>[]> {
  const list = { table: "offers", where: Prisma.sql`campaign_id = ${campaignId}`, direction: "oldestFirst" } as const;
  return keysetPage(db, list, page, (ids) => db.offer.findMany({ where: { id: { in: ids } } }));
}

export type OfferChanges = Partial<
  Pick<OfferRow, "displayName" | "description" | "priceNanos" | "creditNanos" | "active">
>;

/** Writes only while the offer is still at `version` (AIP-154); bumps it. */
export async function updateOfferAtVersion(
  db: Db,
  options: { campaignId: string; offerId: string; version: number; changes: OfferChanges; now: Date },
): Promise<ConditionalWrite<OfferRow>> {
  const { campaignId, offerId, version, changes, now } = options;
  const written = await db.offer.updateMany({
    where: { id: offerId, campaignId, version },
    data: { ...changes, version: { increment: 1 }, updateTime: now },
  });
  const row = await db.offer.findFirst({ where: { id: offerId, campaignId } });
  if (!row) return { kind: "absent" };
  return written.count === 1 ? { kind: "written", row } : { kind: "stale" };
}

export type OfferDeletion = "deleted" | "deactivated" | "absent" | "stale";

/**
 * Spec 3.3: an offer somebody bought is deactivated instead of deleted. The offer row is locked
 * first, so a begin opening a purchase of it (which holds the row FOR KEY SHARE, as its
 * foreign key does) either committed before, and is seen, or waits and then finds the offer
 * gone; the decision between delete and deactivate is taken on what is committed.
 */
export async function deleteOrDeactivateOffer(
  db: Db,
  options: { campaignId: string; offerId: string; expectedVersion: number | undefined; now: Date },
): Promise<OfferDeletion> {
  try {
    return await db.$transaction((tx) => deleteOrDeactivateLocked(tx, options));
  } catch (error) {
    // Never expected with the lock; a purchase of it committed while we deleted: deactivate.
    if (!violates(error, "foreign key")) throw error;
    return db.$transaction((tx) => deleteOrDeactivateLocked(tx, { ...options, deletable: false }));
  }
}

async function deleteOrDeactivateLocked(
  tx: Prisma.TransactionClient,
  options: { campaignId: string; offerId: string; expectedVersion: number | undefined; now: Date; deletable?: boolean },
): Promise<OfferDeletion> {
  const { campaignId, offerId, expectedVersion, now } = options;
  const rows = await tx.$queryRaw<{ version: number }[]>`
    SELECT version FROM offers WHERE id = ${offerId} AND campaign_id = ${campaignId} FOR UPDATE`;
  const row = rows[0];
  if (!row) return "absent";
  if (expectedVersion !== undefined && row.version !== expectedVersion) return "stale";
  // A statement of its own, after the lock: it sees every purchase committed while we waited.
  const bought = await tx.purchase.count({ where: { offerId }, take: 1 });
  if (bought === 0 && options.deletable !== false) {
    await tx.$executeRaw`DELETE FROM offers WHERE id = ${offerId}`;
    return "deleted";
  }
  await tx.offer.update({
    where: { id: offerId },
    data: { active: false, version: { increment: 1 }, updateTime: now },
  });
  return "deactivated";
}
