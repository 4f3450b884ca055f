import { randomUUID } from "node:crypto";
import type { Role } from "../../gen/prisma/enums.js";
import { issueToken } from "../../src/core/credentials.js";
import type { Db } from "../../src/store/open-database.js";
import { DOLLAR, type SeedCampaignOptions, type SeededCampaign, seedCampaign } from "./seed.js";

// Store fixtures for hosting, billing and transfers: API keys by role, games, projects and
// resources written straight to the tables.

/** An API key of `role` in the account; returns its bearer token. */
export async function seedApiKey(db: Db, accountId: string, role: Role): Promise<string> {
  const issued = issueToken("ek_");
  await db.apiKey.create({
    data: {
      id: randomUUID(),
      accountId,
      displayName: role,
      role,
      keyHash: issued.hash,
      keyPrefix: issued.displayPrefix,
    },
  });
  return issued.token;
}

export type Tokens = Record<Role, string>;

export async function seedTokens(db: Db, accountId: string): Promise<Tokens> {
  return {
    OWNER: await seedApiKey(db, accountId, "OWNER"),
    ADMIN: await seedApiKey(db, accountId, "ADMIN"),
    BILLING: await seedApiKey(db, accountId, "BILLING"),
    VIEWER: await seedApiKey(db, accountId, "VIEWER"),
  };
}

export interface Studio extends SeededCampaign {
  gameId: string;
  tokens: Tokens;
  name: string;
}

/** A campaign (not ready unless asked) with its game and a key per role. */
export async function seedStudio(db: Db, options: SeedCampaignOptions = {}): Promise<Studio> {
  const campaign = await seedCampaign(db, { ready: false, ...options });
  const row = await db.campaign.findUniqueOrThrow({ where: { id: campaign.campaignId }, select: { gameId: true } });
  return {
    ...campaign,
    gameId: row.gameId,
    tokens: await seedTokens(db, campaign.accountId),
    name: `accounts/${campaign.accountId}/campaigns/${campaign.campaignId}`,
  };
}

export async function seedGame(db: Db, accountId: string, displayName = "Other game"): Promise<string> {
  const id = randomUUID();
  await db.game.create({ data: { id, accountId, displayName } });
  return id;
}

export async function seedProject(
  db: Db,
  accountId: string,
  options: { topUpOnly?: boolean; balanceNanos?: bigint } = {},
) {
  const id = randomUUID();
  await db.project.create({
    data: {
      id,
      accountId,
      displayName: "Live servers",
      topUpOnly: options.topUpOnly ?? false,
      balanceNanos: options.balanceNanos ?? 0n,
    },
  });
  return { id, name: `accounts/${accountId}/projects/${id}` };
}

export interface SeedResourceOptions {
  kind?: "SERVER" | "DISK" | "ADDRESS";
  region?: string;
  gameId?: string | null;
  clientFacing?: boolean;
  movable?: boolean;
  state?: "RUNNING" | "STOPPED";
  diskCopyable?: boolean;
  hourlyPriceNanos?: bigint;
  createTime?: Date;
}

export async function seedResource(db: Db, accountId: string, projectId: string, options: SeedResourceOptions = {}) {
  const id = randomUUID();
  const region = options.region ?? "eu-west";
  await db.region.upsert({ where: { name: region }, create: { name: region }, update: {} });
  const createTime = options.createTime ?? new Date();
  await db.resource.create({
    data: {
      id,
      projectId,
      displayName: `${options.kind ?? "SERVER"} ${id.slice(0, 4)}`,
      kind: options.kind ?? "SERVER",
      region,
      gameId: options.gameId ?? null,
      clientFacing: options.clientFacing ?? false,
      movable: options.movable ?? true,
      state: options.state ?? "RUNNING",
      diskCopyable: options.diskCopyable ?? true,
      hourlyPriceNanos: options.hourlyPriceNanos ?? DOLLAR / 10n,
      meteredUntil: createTime,
      createTime,
    },
  });
  return { id, name: `accounts/${accountId}/projects/${projectId}/resources/${id}` };
}
