import { randomInt } from "node:crypto";
import http from "node:http";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { seedCampaign } from "../support/seed.js";
import { createTestDatabase } from "../support/test-database.js";
import { startTestServer } from "../support/test-server.js";

// CI sets TEST_REDIS_URL (the machine's Redis); without it there is no Redis to share.
const redisUrl = process.env.TEST_REDIS_URL;

function statusFrom(baseUrl: string, localAddress: string, campaignKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/v1/public/funding:get`,
      { method: "POST", localAddress, headers: { "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ campaignKey }));
  });
}

describe.runIf(redisUrl)("rate limits shared through Redis (REDIS_URL)", () => {
  it("counts one client address across two replicas", async () => {
    const db = await createTestDatabase();
    const env = { REDIS_URL: redisUrl as string, RATE_LIMIT_PER_ADDRESS: "4" };
    const [a, b] = [await startTestServer({ db, env }), await startTestServer({ db, env })];
    // A loopback address of this run's own, so earlier runs' counters cannot interfere.
    const address = `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}`;
    const redis = new Redis(redisUrl as string);
    try {
      const { campaignKey } = await seedCampaign(db.database.prisma);
      const statuses = [];
      for (const server of [a, b, a, b, a, b]) statuses.push(await statusFrom(server.baseUrl, address, campaignKey));
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
});
