import { Prisma } from "../../gen/prisma/client.js";
import type { CampaignState } from "../../gen/prisma/enums.js";
import type { DbClient, InTransaction } from "./db-client.js";
import { type KeysetPageRequest, keysetPage, type Paged } from "./keyset-page.js";
import { takeDueLeases } from "./leases.js";
import type { ConditionalWrite } from "./links.js";
import type { Db } from "./open-database.js";

// Campaigns (spec 3.2): each with its own top-up-only funding project, its verification facts
// and, once the hosting side started one, its latest transfer.

/** What every campaign read includes: the latest transfer with its items. */
export const withLatestTransfer = {
  transfers: {
    orderBy: [{ createTime: "desc" }, { id: "desc" }],
    take: 1,
    include: { items: { orderBy: { position: "asc" } } },
  },
} satisfies Prisma.CampaignInclude;

/** A campaign (prisma/schema.prisma documents its columns) with its latest transfer, if one was started. */
export type CampaignRow = Prisma.CampaignGetPayload<{ include: typeof withLatestTransfer }>;
export type TransferRow = CampaignRow["transfers"][number];

export function gameExists(db: Db, accountId: string, gameId: string): Promise<boolean> {
  return db.game.count({ where: { id: gameId, accountId } }).then((count) => count > 0);
}

type CampaignIdentity = "id" | "accountId" | "displayName" | "gameId" | "linkId" | "appId" | "campaignKey";
type CampaignSettings = "fundingVisibility" | "runwayAlertDays" | "webFundingEnabled";

/** AIP-155: with the create's request id and request hash, or null. */
export interface NewCampaign
  extends Pick<CampaignRow, CampaignIdentity | CampaignSettings | "projectId" | "requestId" | "requestHash"> {
  now: Date;
}

/** The campaign and its funding project in one transaction (spec 3.2, 1.1). */
export function insertCampaignWithProject(db: Db, campaign: NewCampaign): Promise<CampaignRow> {
  const { projectId, now, ...fields } = campaign;
  return db.$transaction(async (tx) => {
    await tx.project.create({
      data: {
        id: projectId,
        accountId: campaign.accountId,
        displayName: `Campaign: ${campaign.displayName || campaign.id}`,
        topUpOnly: true,
        createTime: now,
      },
    });
    return tx.campaign.create({
      data: { ...fields, projectId, state: "VERIFYING", createTime: now, updateTime: now },
      include: withLatestTransfer,
    });
  });
}

/** The campaign an earlier create with `requestId` made in the account. */
export function findCampaignByRequest(db: Db, accountId: string, requestId: string): Promise<CampaignRow | null> {
  return db.campaign.findUnique({
    where: { accountId_requestId: { accountId, requestId } },
    include: withLatestTransfer,
  });
}

export function findCampaign(db: DbClient, accountId: string, campaignId: string): Promise<CampaignRow | null> {
  return db.campaign.findFirst({ where: { id: campaignId, accountId }, include: withLatestTransfer });
}

export interface CampaignListing extends KeysetPageRequest {
  /** One account's campaigns; every account's when undefined (the operator's review queue). */
  accountId?: string;
  state: CampaignState | undefined;
}

/** Campaigns oldest first, in one account or all, in one state or any. */
export async function listCampaigns(db: Db, options: CampaignListing): Promise<Paged<CampaignRow>[]> {
  const scope: Prisma.Sql[] = [];
  if (options.accountId !== undefined) scope.push(Prisma.sql`account_id = ${options.accountId}`);
  if (options.state !== undefined) scope.push(Prisma.sql`state = ${options.state}::"CampaignState"`);
  const where = scope.length === 0 ? Prisma.sql`TRUE` : Prisma.join(scope, " AND ");
  return keysetPage(db, { table: "campaigns", where, direction: "oldestFirst" }, options, (ids) =>
    db.campaign.findMany({ where: { id: { in: ids } }, include: withLatestTransfer }),
  );
}

export type CampaignChanges = Partial<
  Pick<CampaignRow, "displayName" | "fundingVisibility" | "runwayAlertDays" | "webFundingEnabled">
>;

/**
 * A conditional write on `version` (AIP-154): of two updates made with the same etag, only
 * the first matches; the other is told it is stale.
 */
export async function updateCampaign(
  db: Db,
  options: {
    accountId: string;
    campaignId: string;
    expectedVersion: number | undefined;
    changes: CampaignChanges;
    now: Date;
  },
): Promise<ConditionalWrite<CampaignRow>> {
  const { accountId, campaignId, expectedVersion, changes, now } = options;
  const written = await db.campaign.updateMany({
    where: { id: campaignId, accountId, ...(expectedVersion === undefined ? {} : { version: expectedVersion }) },
    data: { ...changes, version: { increment: 1 }, updateTime: now },
  });
  const row = await findCampaign(db, accountId, campaignId);
  if (!row) return { kind: "absent" };
  return written.count === 1 ? { kind: "written", row } : { kind: "stale" };
}

export type CampaignDeletion = "deleted" | "absent" | "stale" | "transferredOrBought";

/**
 * Deletes the campaign (its offers go with it) unless a transfer started or a purchase was
 * made (spec 3.3, 4.6). Its funding project goes too while it holds nothing: no balance, no
 * ledger entry, no resource; otherwise it stays as one of the account's projects.
 */
export function deleteCampaign(
  db: Db,
  options: { accountId: string; campaignId: string; expectedVersion: number | undefined },
): Promise<CampaignDeletion> {
  const { accountId, campaignId, expectedVersion } = options;
  const version = expectedVersion === undefined ? Prisma.empty : Prisma.sql`AND version = ${expectedVersion}`;
  return db.$transaction(async (tx) => {
    const deleted = await tx.$queryRaw<{ project_id: string }[]>`
      DELETE FROM campaigns c
       WHERE c.id = ${campaignId} AND c.account_id = ${accountId} ${version}
         AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.campaign_id = c.id)
         AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.campaign_id = c.id)
      RETURNING c.project_id`;
    const projectId = deleted[0]?.project_id;
    if (projectId !== undefined) {
      await tx.$executeRaw`
        DELETE FROM projects p
         WHERE p.id = ${projectId} AND p.balance_nanos = 0
           AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.project_id = p.id)
           AND NOT EXISTS (SELECT 1 FROM resources r WHERE r.project_id = p.id)
           AND NOT EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.project_id = p.id)`;
      return "deleted";
    }
    const row = await tx.campaign.findFirst({ where: { id: campaignId, accountId }, select: { version: true } });
    if (!row) return "absent";
    if (expectedVersion !== undefined && row.version !== expectedVersion) return "stale";
    return "transferredOrBought";
  });
}

export type Retry =
  | { kind: "retried"; row: CampaignRow }
  | { kind: "absent" }
  | { kind: "notRetryable"; state: CampaignState };

/** Spec 3.2: back to VERIFYING only from NEEDS_REVIEW or DECLINED, decided in the write itself. */
export async function retryVerification(
  db: Db,
  options: { accountId: string; campaignId: string; from: readonly CampaignState[]; now: Date },
): Promise<Retry> {
  const { accountId, campaignId, from, now } = options;
  const written = await db.campaign.updateMany({
    where: { id: campaignId, accountId, state: { in: [...from] } },
    data: { state: "VERIFYING", verifyLeaseUntil: null, version: { increment: 1 }, updateTime: now },
  });
  const row = await findCampaign(db, accountId, campaignId);
  if (!row) return { kind: "absent" };
  return written.count === 1 ? { kind: "retried", row } : { kind: "notRetryable", state: row.state };
}

export async function campaignExists(db: Db, accountId: string, campaignId: string): Promise<boolean> {
  return (await db.campaign.count({ where: { id: campaignId, accountId } })) > 0;
}

// The background verification's share of campaigns (spec 3.2). Replicas lease campaigns in
// VERIFYING (leases.ts, "verify"), so each campaign is verified by one at a time; a lease that
// outlives a crashed replica runs out and the campaign is picked up again.

export interface VerificationTask {
  campaignId: string;
  appId: bigint;
  linkId: string;
  publisherKeyEncrypted: Uint8Array;
  /** The lease this replica holds: its outcome is written only while it still holds it. */
  leaseUntil: Date;
}

export async function leaseVerifications(
  db: Db,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<VerificationTask[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const leased = await takeDueLeases<Omit<VerificationTask, "leaseUntil">>(db, "verify", {
    now: options.now,
    until: leaseUntil,
    due: Prisma.sql`state = 'VERIFYING'`,
    orderBy: Prisma.sql`update_time, id`,
    limit: options.limit,
    // The link's key with it (a campaign's link is never deleted under it: ON DELETE RESTRICT).
    returning: Prisma.sql`id AS "campaignId", app_id AS "appId", link_id AS "linkId",
      (SELECT publisher_key_encrypted FROM distributor_links d WHERE d.id = campaigns.link_id) AS "publisherKeyEncrypted"`,
  });
  return leased.map((task) => ({ ...task, appId: BigInt(task.appId), leaseUntil }));
}

export interface VerificationRecord
  extends Pick<CampaignRow, "keyOwnsApp" | "removedFromSale" | "endingAnnouncement" | "explanation"> {
  state: "VERIFIED" | "NEEDS_REVIEW";
}

/** Writes the outcome while this replica still holds the lease and the campaign still waits for it. */
export function recordVerification(
  db: Db,
  task: VerificationTask,
  options: { record: VerificationRecord; now: Date; inTransaction?: InTransaction },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const written = await tx.campaign.updateMany({
      where: { id: task.campaignId, state: "VERIFYING", verifyLeaseUntil: task.leaseUntil },
      data: {
        ...options.record,
        verifyTime: options.now,
        verifyLeaseUntil: null,
        version: { increment: 1 },
        updateTime: options.now,
      },
    });
    if (written.count !== 1) return false;
    await options.inTransaction?.(tx);
    return true;
  });
}

/**
 * The platform did not answer: the campaign stays VERIFYING for the next attempt, the reason
 * visible to the studio; the lease is given back so the next pass takes it.
 */
export async function postponeVerification(
  db: Db,
  task: VerificationTask,
  options: { explanation: string; now: Date },
): Promise<void> {
  await db.campaign.updateMany({
    where: { id: task.campaignId, state: "VERIFYING", verifyLeaseUntil: task.leaseUntil },
    data: {
      explanation: options.explanation,
      verifyLeaseUntil: null,
      version: { increment: 1 },
      updateTime: options.now,
    },
  });
}

// The operator's review decisions (services/operator/review-decisions.ts).

export async function findCampaignState(
  db: DbClient,
  accountId: string,
  id: string,
): Promise<CampaignState | undefined> {
  const row = await db.campaign.findFirst({ where: { id, accountId }, select: { state: true } });
  return row?.state;
}

/** Moves a campaign from `from` to `to` only if it is still in `from`; whether it moved. */
export async function moveCampaign(
  db: DbClient,
  change: { accountId: string; id: string; from: CampaignState; to: CampaignState; explanation: string; now: Date },
): Promise<boolean> {
  const { count } = await db.campaign.updateMany({
    where: { id: change.id, accountId: change.accountId, state: change.from },
    data: { state: change.to, explanation: change.explanation, version: { increment: 1 }, updateTime: change.now },
  });
  return count > 0;
}
