import { randomInt } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import { postFrom, statusFrom } from "../support/post-from.js";
import { seedCampaign } from "../support/seed.js";
import { seedApiKey } from "../support/seed-hosting.js";
import { mintPlayer, seedShop } from "../support/seed-purchases.js";
import { createTestDatabase } from "../support/test-database.js";
import { startTestServer, TEST_MASTER_KEY } from "../support/test-server.js";

// CI sets TEST_REDIS_URL (the machine's Redis); without it there is no Redis to share.
const redisUrl = process.env.TEST_REDIS_URL;

// A loopback address of this run's own, so earlier runs' counters cannot interfere.
const runAddress = () => `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}`;

describe.runIf(redisUrl)("rate limits shared through Redis (REDIS_URL)", () => {
  it("counts one client address across two replicas", async () => {
    const db = await createTestDatabase();
    const env = { REDIS_URL: redisUrl as string, RATE_LIMIT_PER_ADDRESS: "4" };
    const [a, b] = [await startTestServer({ db, env }), await startTestServer({ db, env })];
    const address = runAddress();
    const redis = new Redis(redisUrl as string);
    try {
      const { campaignKey } = await seedCampaign(db.database.prisma);
      const statuses = [];
      for (const server of [a, b, a, b, a, b])
        statuses.push(
          await statusFrom(`${server.baseUrl}/v1/public/funding:get`, { campaignKey }, { localAddress: address }),
        );
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      expect(await redis.exists(`rl:address:${address}`)).toBe(1);
    } finally {
      await redis.del(`rl:address:${address}`);
      redis.disconnect();
      await a.close();
      await b.close();
      await db.drop();
    }
  });

  it("counts failed authentications per address across two replicas (docs/abuse-limits.md)", async () => {
    const db = await createTestDatabase();
    const env = { REDIS_URL: redisUrl as string, RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: "2" };
    const [a, b] = [await startTestServer({ db, env }), await startTestServer({ db, env })];
    const [stranger, studio] = [runAddress(), runAddress()];
    const redis = new Redis(redisUrl as string);
    try {
      const { accountId } = await seedCampaign(db.database.prisma);
      const ownerKey = await seedApiKey(db.database.prisma, accountId, "OWNER");
      const createGame = (server: typeof a, address: string, token: string) =>
        postFrom(
          server.baseUrl,
          address,
          `/v1/accounts/${accountId}/games`,
          { displayName: "Game" },
          { authorization: `Bearer ${token}` },
        ).then((res) => res.status);
      const statuses = [];
      for (const server of [a, b, a, b]) statuses.push(await createGame(server, stranger, "ek_wrong_key_000000000"));
      expect(statuses).toEqual([401, 401, 429, 429]);
      expect(await redis.exists(`rl:auth:address:${stranger}`)).toBe(1);
      // A valid key from another address, on either replica, spends nothing of its budget.
      const valid = [];
      for (const server of [a, b, a, b]) valid.push(await createGame(server, studio, ownerKey));
      expect(valid).toEqual([200, 200, 200, 200]);
      const wrong = [];
      for (const server of [b, a, b]) wrong.push(await createGame(server, studio, "ek_wrong_key_000000000"));
      expect(wrong).toEqual([401, 401, 429]);
    } finally {
      await redis.del(`rl:auth:address:${stranger}`, `rl:auth:address:${studio}`);
      redis.disconnect();
      await a.close();
      await b.close();
      await db.drop();
    }
  });

  it("counts failed tickets per address and per campaign across two replicas", async () => {
    const sim = await startSteamSimulator({ port: 0 });
    const db = await createTestDatabase();
    const env = {
      REDIS_URL: redisUrl as string,
      STEAM_API_URL: sim.url,
      STEAM_STORE_URL: sim.storeUrl,
      RATE_LIMIT_BEGIN_PER_CAMPAIGN: "3",
      RATE_LIMIT_FAILED_TICKETS_PER_ADDRESS: "2",
      RATE_LIMIT_FAILED_TICKETS_PER_CAMPAIGN: "2",
    };
    const [a, b] = [await startTestServer({ db, env }), await startTestServer({ db, env })];
    const [stranger, other, player] = [runAddress(), runAddress(), runAddress()];
    const redis = new Redis(redisUrl as string);
    const shop = await seedShop(db.database.prisma, sim.control, TEST_MASTER_KEY);
    const begin = (server: typeof a, address: string, authTicket: string) =>
      postFrom(server.baseUrl, address, "/v1/public/purchases:begin", {
        campaignKey: shop.campaignKey,
        offerId: shop.offerId,
        authTicket,
      });
    try {
      await sim.control.clearCalls();
      const statuses = [];
      // The stranger spends its failed tickets, and the campaign's, on both replicas.
      for (const server of [a, b, a]) statuses.push((await begin(server, stranger, "ABCD")).status);
      // Another address with a clean record is checked once; then it has a record.
      for (const server of [b, a]) statuses.push((await begin(server, other, "ABCD")).status);
      expect(statuses).toEqual([401, 401, 429, 401, 429]);
      expect(await sim.control.listCalls({ call: "AuthenticateUserTicket" })).toHaveLength(3);
      expect(await redis.exists(`rl:ticket:address:${stranger}`)).toBe(1);
      // Junk never held the campaign's begin limit (3): a player is served.
      const { ticket } = await mintPlayer(sim.control, shop.appId);
      expect((await begin(b, player, ticket)).status).toBe(200);
    } finally {
      const keys = [stranger, other, player].flatMap((address) => [
        `rl:address:${address}`,
        `rl:ticket:address:${address}`,
      ]);
      await redis.del(...keys, `rl:begin:${shop.campaignKey}`, `rl:ticket:campaign:${shop.campaignKey}`);
      redis.disconnect();
      await a.close();
      await b.close();
      await db.drop();
      await sim.close();
    }
  });
});
