import { randomBytes, randomUUID } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import type { Logger } from "pino";
import { expect } from "vitest";
import { Campaign_State } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import type { Role } from "../../src/domain/permissions.js";
import { type SteamSimulator, startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import type { Db } from "../../src/store/open-database.js";
import { seedApiKey } from "../support/seed-hosting.js";
import type { ProtocolName, TestServer } from "../support/test-server.js";
import { startTestServer } from "../support/test-server.js";

export const ROLES: readonly Role[] = ["OWNER", "ADMIN", "BILLING", "VIEWER"];

export interface Harness {
  server: TestServer;
  sim: SteamSimulator;
  db: Db;
  close(): Promise<void>;
}

/** The service over a fresh database, pointed at its own Steam simulator. */
export async function startHarness(options: { logger?: Logger; env?: Record<string, string> } = {}): Promise<Harness> {
  const sim = await startSteamSimulator({ port: 0 });
  const server = await startTestServer({
    env: { STEAM_API_URL: sim.url, STEAM_STORE_URL: sim.storeUrl, STEAM_TIMEOUT_MS: "1000", ...options.env },
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    server,
    sim,
    db: server.db.database.prisma,
    async close() {
      await server.close();
      await sim.close();
    },
  };
}

export interface Studio {
  accountId: string;
  name: string;
  /** An API key per role, seeded in the store (the identity API issues them the same way). */
  tokens: Record<Role, string>;
  /** The account's owner key's client over Connect. */
  owner: Client<typeof CampaignService>;
}

export async function seedStudio(harness: Harness): Promise<Studio> {
  const accountId = randomUUID();
  await harness.db.account.create({ data: { id: accountId, displayName: "Studio" } });
  const tokens = {} as Record<Role, string>;
  for (const role of ROLES) tokens[role] = await seedApiKey(harness.db, accountId, role);
  return {
    accountId,
    name: `accounts/${accountId}`,
    tokens,
    owner: harness.server.client(CampaignService, "connect", tokens.OWNER),
  };
}

export function clientFor(harness: Harness, token: string, protocol: ProtocolName = "connect") {
  return harness.server.client(CampaignService, protocol, token);
}

export async function seedGame(harness: Harness, studio: Studio): Promise<string> {
  const gameId = randomUUID();
  await harness.db.game.create({ data: { id: gameId, accountId: studio.accountId, displayName: "Game" } });
  return `${studio.name}/games/${gameId}`;
}

let nextApp = 20_000 + Math.floor(Math.random() * 1_000_000);

/** A fresh app id, never used by another test of this process. */
export function newAppId(): number {
  nextApp += 1;
  return nextApp;
}

/** A publisher key the simulator knows as owning `apps` (games). */
export async function newPublisherKey(harness: Harness, apps: readonly number[]): Promise<string> {
  const key = `PK${randomBytes(12).toString("hex").toUpperCase()}`;
  await harness.sim.control.addPublisherKey(
    key,
    apps.map((appid) => ({ appid, name: `Game ${appid}` })),
  );
  return key;
}

export interface Linked {
  link: string;
  publisherKey: string;
  appIds: number[];
}

/** A link made through the API, with a key owning `apps` fresh app ids. */
export async function createLink(harness: Harness, studio: Studio, apps = 1): Promise<Linked> {
  const appIds = Array.from({ length: apps }, newAppId);
  const publisherKey = await newPublisherKey(harness, appIds);
  const link = await studio.owner.createDistributorLink({
    parent: studio.name,
    distributorLink: { displayName: "Steam", steam: { publisherKey } },
  });
  return { link: link.name, publisherKey, appIds };
}

/** A campaign made through the API; `appIndex` picks the link's app. */
export async function createCampaign(harness: Harness, studio: Studio, linked?: Linked, appIndex = 0) {
  const link = linked ?? (await createLink(harness, studio));
  const game = await seedGame(harness, studio);
  const appId = link.appIds[appIndex] as number;
  const campaign = await studio.owner.createCampaign({
    parent: studio.name,
    campaign: {
      displayName: "Keep it alive",
      game,
      listing: `${link.link}/listings/${appId}`,
      fundingVisibility: FundingVisibility.EXACT_BALANCE,
    },
  });
  return { campaign, linked: link, appId, game };
}

/** Reads the campaign until verification has left VERIFYING (or `until` holds). */
export async function awaitCampaign(
  client: Client<typeof CampaignService>,
  name: string,
  until: (c: Awaited<ReturnType<Client<typeof CampaignService>["getCampaign"]>>) => boolean = (c) =>
    c.state !== Campaign_State.STATE_VERIFYING,
) {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const campaign = await client.getCampaign({ name });
    if (until(campaign)) return campaign;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`campaign ${name} never reached the awaited state`);
}

export function expectReason(found: { code: number; reason?: string }, code: number, reason: string) {
  expect(found).toMatchObject({ code, reason });
}

/** A purchase row as the purchase flow writes it, for the reads and the refusals it causes. */
export async function seedPurchase(
  harness: Harness,
  options: {
    campaignId: string;
    offerId: string;
    linkId: string;
    state?: "INITIATED" | "CREDITED";
    creditNanos?: bigint;
    createTime?: Date;
    creditTime?: Date;
  },
): Promise<string> {
  const id = randomUUID();
  await harness.db.purchase.create({
    data: {
      id,
      campaignId: options.campaignId,
      offerId: options.offerId,
      linkId: options.linkId,
      orderId: BigInt(`0x${randomBytes(7).toString("hex")}`),
      playerId: "76561198000000001",
      state: options.state ?? "INITIATED",
      priceNanos: 5_000_000_000n,
      creditNanos: options.creditNanos ?? 3_000_000_000n,
      sandbox: false,
      language: "en",
      ...(options.createTime ? { createTime: options.createTime } : {}),
      ...(options.creditTime ? { creditTime: options.creditTime } : {}),
    },
  });
  return id;
}

/** The last segment of a resource name. */
export function idOf(name: string): string {
  return name.split("/").pop() ?? "";
}
