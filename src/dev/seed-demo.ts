import { randomBytes, randomUUID } from "node:crypto";
import { API_KEY_PREFIX, issueToken } from "../core/credentials.js";
import { fingerprintSecret, sealSecret } from "../core/secret-box.js";
import { NANOS_PER_CENT } from "../domain/money.js";
import type { Db } from "../store/open-database.js";

export interface DemoShop {
  campaignKey: string;
  offerId: string;
  appId: number;
  publisherKey: string;
  steamid: string;
  /** An account.owner API key of the demo studio: what signs in to the console. */
  studioApiKey: string;
}

const DEMO_APP_ID = 480;
const DEMO_PLAYER = "76561198000000001";
const DOLLARS = 100n * NANOS_PER_CENT;

/**
 * A demo account straight in the store: an owner API key, a game, a top-up-only project with a
 * week of usage, a live (non-sandbox) link with the simulator's key and a $1,000 outstanding
 * limit, and a verified, ready campaign with two offers.
 */
export async function seedDemo(db: Db, masterKey: Buffer): Promise<DemoShop> {
  const accountId = randomUUID();
  const gameId = randomUUID();
  const projectId = randomUUID();
  const linkId = randomUUID();
  const campaignId = randomUUID();
  const publisherKey = `DEMOKEY${randomBytes(8).toString("hex").toUpperCase()}`;
  const campaignKey = `ck_${randomBytes(16).toString("base64url")}`;
  await db.account.create({ data: { id: accountId, displayName: "Demo Studio" } });
  const studioKey = issueToken(API_KEY_PREFIX);
  await db.apiKey.create({
    data: {
      id: randomUUID(),
      accountId,
      displayName: "Demo owner key",
      role: "OWNER",
      keyHash: studioKey.hash,
      keyPrefix: studioKey.displayPrefix,
    },
  });
  await db.game.create({ data: { id: gameId, accountId, displayName: "Spacewar" } });
  await db.project.create({
    data: { id: projectId, accountId, displayName: "Spacewar servers", topUpOnly: true, balanceNanos: 20n * DOLLARS },
  });
  await db.ledgerEntry.create({
    data: {
      id: randomUUID(),
      projectId,
      type: "USAGE",
      amountNanos: -7n * DOLLARS,
      createTime: new Date(Date.now() - 86_400_000),
    },
  });
  await db.distributorLink.create({
    data: {
      id: linkId,
      accountId,
      displayName: "Steam (simulator)",
      sandbox: false,
      publisherKeyEncrypted: sealSecret({ current: masterKey }, publisherKey),
      fingerprint: fingerprintSecret(publisherKey),
      outstandingLimitNanos: 1000n * DOLLARS,
    },
  });
  await db.campaign.create({
    data: {
      id: campaignId,
      accountId,
      displayName: "Keep Spacewar alive",
      gameId,
      linkId,
      appId: BigInt(DEMO_APP_ID),
      fundingVisibility: "EXACT_BALANCE",
      campaignKey,
      state: "VERIFIED",
      keyOwnsApp: true,
      removedFromSale: true,
      verifyTime: new Date(),
      projectId,
      readyTime: new Date(),
      // Its players may fund it from the web page too (docs/game-integration.md).
      webFundingEnabled: true,
    },
  });
  const offer = (id: string, name: string, cents: bigint, creditCents: bigint) =>
    db.offer.create({
      data: {
        id,
        campaignId,
        displayName: name,
        description: "Server time for everyone",
        priceNanos: cents * NANOS_PER_CENT,
        creditNanos: creditCents * NANOS_PER_CENT,
      },
    });
  await offer("week", "A week of servers", 499n, 349n);
  await offer("month", "A month of servers", 1499n, 1049n);
  return {
    campaignKey,
    offerId: "week",
    appId: DEMO_APP_ID,
    publisherKey,
    steamid: DEMO_PLAYER,
    studioApiKey: studioKey.token,
  };
}
