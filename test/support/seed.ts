import { randomBytes, randomUUID } from "node:crypto";
import type { CampaignState, FundingVisibility } from "../../gen/prisma/enums.js";
import type { Db } from "../../src/store/open-database.js";

const id = () => randomUUID();
const DOLLAR = 1_000_000_000n;

export interface SeedCampaignOptions {
  state?: CampaignState;
  ready?: boolean;
  visibility?: FundingVisibility;
  balanceNanos?: bigint;
  linkState?: "ACTIVE" | "CREDENTIAL_INVALID";
  sandbox?: boolean;
  outstandingNanos?: bigint;
  reservedNanos?: bigint;
  outstandingLimitNanos?: bigint;
}

export interface SeededCampaign {
  accountId: string;
  campaignId: string;
  campaignKey: string;
  projectId: string;
  linkId: string;
}

let nextAppId = 100_000n;

/** A campaign with its account, game, link and project, written straight to the store. */
export async function seedCampaign(db: Db, options: SeedCampaignOptions = {}): Promise<SeededCampaign> {
  const accountId = id();
  const projectId = id();
  const linkId = id();
  const gameId = id();
  const campaignId = id();
  const campaignKey = `ck_${randomBytes(16).toString("base64url")}`;
  await db.account.create({ data: { id: accountId, displayName: "Studio" } });
  await db.game.create({ data: { id: gameId, accountId, displayName: "Game" } });
  await db.project.create({
    data: {
      id: projectId,
      accountId,
      displayName: "Campaign project",
      topUpOnly: true,
      balanceNanos: options.balanceNanos ?? 0n,
    },
  });
  await db.distributorLink.create({
    data: {
      id: linkId,
      accountId,
      displayName: "Steam",
      sandbox: options.sandbox ?? false,
      publisherKeyEncrypted: Buffer.from("not a real key"),
      fingerprint: "sha256:test",
      state: options.linkState ?? "ACTIVE",
      outstandingNanos: options.outstandingNanos ?? 0n,
      reservedNanos: options.reservedNanos ?? 0n,
      outstandingLimitNanos: options.outstandingLimitNanos ?? 1000n * DOLLAR,
    },
  });
  nextAppId += 1n;
  await db.campaign.create({
    data: {
      id: campaignId,
      accountId,
      displayName: "Keep it alive",
      gameId,
      linkId,
      appId: nextAppId + BigInt(Math.floor(Math.random() * 1e9)),
      fundingVisibility: options.visibility ?? "EXACT_BALANCE",
      campaignKey,
      state: options.state ?? "VERIFIED",
      projectId,
      readyTime: (options.ready ?? true) ? new Date() : null,
    },
  });
  return { accountId, campaignId, campaignKey, projectId, linkId };
}

export interface SeedOfferOptions {
  priceNanos?: bigint;
  creditNanos?: bigint;
  active?: boolean;
  displayName?: string;
}

export async function seedOffer(db: Db, campaignId: string, options: SeedOfferOptions = {}): Promise<string> {
  const offerId = `offer-${randomBytes(4).toString("hex")}`;
  await db.offer.create({
    data: {
      id: offerId,
      campaignId,
      displayName: options.displayName ?? "Five dollars of server time",
      description: "Keeps the servers up",
      priceNanos: options.priceNanos ?? 5n * DOLLAR,
      creditNanos: options.creditNanos ?? 3n * DOLLAR,
      active: options.active ?? true,
    },
  });
  return offerId;
}

/** Usage the project was charged `daysAgo` days before `now` (a negative ledger entry). */
export async function seedUsage(db: Db, projectId: string, amountNanos: bigint, createTime: Date): Promise<void> {
  await db.ledgerEntry.create({
    data: { id: id(), projectId, type: "USAGE", amountNanos: -amountNanos, createTime },
  });
}

export { DOLLAR };
