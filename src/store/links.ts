import { type DistributorLink, Prisma, type Settlement } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";
import { type KeysetPageRequest, keysetPage, type Paged } from "./keyset-page.js";
import type { Db } from "./open-database.js";
import { SETTINGS_ID } from "./settings.js";

// Distributor links (spec 2.6, 3.3): the encrypted publisher key, its fingerprint and the
// link's money (outstanding, reserved, limit) as integer nano-USD.

/** The link's columns: prisma/schema.prisma says what each holds. */
export type LinkRow = DistributorLink;

export interface NewLink
  extends Pick<LinkRow, "id" | "accountId" | "displayName" | "sandbox" | "fingerprint" | "requestId" | "requestHash"> {
  publisherKeyEncrypted: Uint8Array<ArrayBuffer>;
  now: Date;
}

/** A new link starts at the operator's default outstanding limit (DESIGN 3), read in the same write. */
export async function insertLink(db: Db, link: NewLink): Promise<LinkRow> {
  const { now, ...fields } = link;
  return db.$transaction(async (tx) => {
    const settings = await tx.operatorSettings.findUnique({ where: { id: SETTINGS_ID } });
    return tx.distributorLink.create({
      data: {
        ...fields,
        outstandingLimitNanos: settings?.defaultOutstandingLimitNanos ?? 0n,
        createTime: now,
        updateTime: now,
      },
    });
  });
}

/** The link an earlier create with `requestId` made in the account. */
export function findLinkByRequest(db: Db, accountId: string, requestId: string): Promise<LinkRow | null> {
  return db.distributorLink.findUnique({ where: { accountId_requestId: { accountId, requestId } } });
}

export function findLink(db: DbClient, accountId: string, linkId: string): Promise<LinkRow | null> {
  return db.distributorLink.findFirst({ where: { id: linkId, accountId } });
}

export function listLinks(db: Db, accountId: string, page: KeysetPageRequest): Promise<Paged<LinkRow>[]> {
  const list = {
    table: "distributor_links",
    where: Prisma.sql`account_id = ${accountId}`,
    direction: "oldestFirst",
  } as const;
  return keysetPage(db, list, page, (ids) => db.distributorLink.findMany({ where: { id: { in: ids } } }));
}

/** The app ids sold by campaigns on the link: a rotated key must still own every one (spec 4.6). */
export async function appIdsOnLink(db: Db, linkId: string): Promise<bigint[]> {
  const campaigns = await db.campaign.findMany({ where: { linkId }, select: { appId: true } });
  return campaigns.map((campaign) => campaign.appId);
}

export interface LinkChanges {
  displayName?: string;
  key?: { publisherKeyEncrypted: Uint8Array<ArrayBuffer>; fingerprint: string };
}

export type ConditionalWrite<T> = { kind: "written"; row: T } | { kind: "absent" } | { kind: "stale" };

/**
 * Writes the changes when the link is still at `expectedVersion` (or at any version when
 * undefined), bumping the version. A rotated key clears STATE_CREDENTIAL_INVALID (spec 3.3).
 */
export async function updateLink(
  db: Db,
  options: { accountId: string; linkId: string; expectedVersion: number | undefined; changes: LinkChanges; now: Date },
): Promise<ConditionalWrite<LinkRow>> {
  const { accountId, linkId, expectedVersion, changes, now } = options;
  const count = await db.distributorLink.updateMany({
    where: { id: linkId, accountId, ...(expectedVersion === undefined ? {} : { version: expectedVersion }) },
    data: {
      ...(changes.displayName === undefined ? {} : { displayName: changes.displayName }),
      ...(changes.key === undefined ? {} : { ...changes.key, state: "ACTIVE" as const }),
      version: { increment: 1 },
      updateTime: now,
    },
  });
  const row = await findLink(db, accountId, linkId);
  if (!row) return { kind: "absent" };
  return count.count === 1 ? { kind: "written", row } : { kind: "stale" };
}

export type LinkDeletion = "deleted" | "absent" | "stale" | "inUse";

/**
 * Deletes the link unless a campaign names it or a purchase was made through it (spec 4.6
 * LINK_IN_USE). The check and the delete are one statement, so a campaign created meanwhile
 * either blocks the delete or fails on the foreign key.
 */
export async function deleteLinkUnlessUsed(
  db: Db,
  options: { accountId: string; linkId: string; expectedVersion: number | undefined },
): Promise<LinkDeletion> {
  const { accountId, linkId, expectedVersion } = options;
  const version = expectedVersion === undefined ? Prisma.empty : Prisma.sql`AND version = ${expectedVersion}`;
  const deleted = await db.$executeRaw`
    DELETE FROM distributor_links d
     WHERE d.id = ${linkId} AND d.account_id = ${accountId} ${version}
       AND NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.link_id = d.id)
       AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.link_id = d.id)
       AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.link_id = d.id)`;
  if (deleted === 1) return "deleted";
  const row = await findLink(db, accountId, linkId);
  if (!row) return "absent";
  if (expectedVersion !== undefined && row.version !== expectedVersion) return "stale";
  return "inUse";
}

/**
 * The platform rejected the key a call was made with (spec 3.3): purchases become
 * PUBLISHER_UNAVAILABLE. Only while the link still holds that key (its fingerprint) and is
 * ACTIVE, bumping the version (the etag): a rotation made while the call was in flight is never
 * undone by the old key's rejection. Returns whether the link was marked.
 */
export async function markCredentialInvalid(
  db: DbClient,
  options: { linkId: string; fingerprint: string; now: Date },
): Promise<boolean> {
  const marked = await db.distributorLink.updateMany({
    where: { id: options.linkId, fingerprint: options.fingerprint, state: "ACTIVE" },
    data: { state: "CREDENTIAL_INVALID", version: { increment: 1 }, updateTime: options.now },
  });
  return marked.count === 1;
}

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

export type SettlementRow = Settlement;

/** The link's settlements, newest first. */
export function listSettlements(db: Db, linkId: string, page: KeysetPageRequest): Promise<Paged<SettlementRow>[]> {
  const list = { table: "settlements", where: Prisma.sql`link_id = ${linkId}`, direction: "newestFirst" } as const;
  return keysetPage(db, list, page, (ids) => db.settlement.findMany({ where: { id: { in: ids } } }));
}
