import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workerSlotOf } from "../../src/server/worker-slot.js";
import { startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import { selfSignedCertificate } from "../support/certificate.js";
import { postFrom, statusFrom } from "../support/post-from.js";
import { parsePrometheusText, sample } from "../support/prometheus-text.js";
import { seedCampaign } from "../support/seed.js";
import { mintPlayer, seedShop } from "../support/seed-purchases.js";
import { serviceNodeOptions } from "../support/service-node-options.js";
import { type ServiceProcess, startService, waitFor } from "../support/service-process.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { TEST_MASTER_KEY, TEST_OPERATOR_TOKEN } from "../support/test-server.js";

// WORKERS > 1 (docs/deploy.md "Workers"): the built service as an operator runs it, a primary
// and two workers on PostgreSQL, against this run's Steam simulator.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Loopback addresses served by worker 0 and by worker 1 of two. */
function addressesBySlot(perSlot: number): [string[], string[]] {
  const slots: [string[], string[]] = [[], []];
  for (let i = 2; slots[0].length < perSlot || slots[1].length < perSlot; i++) {
    const address = `127.0.${i >> 8}.${i & 255}`;
    const slot = slots[workerSlotOf(address, 2)] as string[];
    if (slot.length < perSlot) slot.push(address);
  }
  return slots;
}

/** funding:get for `campaignKey` from `localAddress`, on a connection of its own. */
const readFrom = (baseUrl: string, localAddress: string, campaignKey: string) =>
  statusFrom(`${baseUrl}/v1/public/funding:get`, { campaignKey }, { localAddress });

/** The lines written so far in full (the last may still be coming). */
function wholeLines(output: string): string[] {
  return output.split("\n").slice(0, -1);
}

/** The slot of the worker that logged each call, by the peer address it logged. */
function workersByPeer(output: string): Map<string, Set<number>> {
  const seen = new Map<string, Set<number>>();
  for (const line of wholeLines(output)) {
    if (!line.includes('"rpc":')) continue;
    const { peer, worker } = JSON.parse(line) as { peer: string; worker: number };
    seen.set(peer, (seen.get(peer) ?? new Set()).add(worker));
  }
  return seen;
}

function childPids(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map(Number);
  } catch {
    return [];
  }
}

describe.runIf(onPostgres)("the service with WORKERS=2", () => {
  let db: TestDatabase;
  let sim: Awaited<ReturnType<typeof startSteamSimulator>>;
  let service: ServiceProcess;
  let baseUrl: string;
  let metricsUrl: string;

  beforeAll(async () => {
    sim = await startSteamSimulator({ port: 0 });
    // Not migrated: the primary migrates, once, before any worker starts.
    db = await createTestDatabase({ migrated: false });
    if (db.target.kind !== "postgres") throw new Error("WORKERS needs PostgreSQL");
    service = startService({
      WORKERS: "2",
      DATABASE_URL: db.target.url,
      ENCORE_MASTER_KEY: TEST_MASTER_KEY.toString("base64"),
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      STEAM_API_URL: sim.url,
      STEAM_STORE_URL: sim.storeUrl,
      LOG_LEVEL: "info",
      RATE_LIMIT_PER_ADDRESS: "4",
      RATE_LIMIT_BEGIN_PER_CAMPAIGN: "2",
      RATE_LIMIT_FAILED_TICKETS_PER_ADDRESS: "5",
      RATE_LIMIT_FAILED_TICKETS_PER_CAMPAIGN: "2",
    });
    baseUrl = await service.listening();
    const metricsLine = () => wholeLines(service.output()).find((l) => l.includes('"msg":"metrics listening"'));
    await waitFor(() => metricsLine() !== undefined, "the metrics listener");
    const line = metricsLine();
    metricsUrl = (JSON.parse(line ?? "{}") as { url: string }).url;
  }, 120_000);

  afterAll(async () => {
    service?.child.kill("SIGKILL");
    await db?.drop();
    await sim?.close();
  });

  it("migrates once, in the primary, and listens once with both workers up", () => {
    const lines = wholeLines(service.output());
    expect(lines.filter((l) => l.includes('"msg":"migrations applied"'))).toHaveLength(1);
    const listening = lines.filter((l) => l.includes('"msg":"listening"'));
    expect(listening).toHaveLength(1);
    expect(JSON.parse(listening[0] ?? "{}")).toMatchObject({ workers: 2, database: "postgres" });
    expect(childPids(service.child.pid ?? 0)).toHaveLength(2);
  });

  it("forks each worker with the primary's node options (V8's young generation among them)", () => {
    const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const primary = cmdline(service.child.pid ?? 0);
    expect(primary).toEqual(expect.arrayContaining(serviceNodeOptions()));
    expect(serviceNodeOptions().some((option) => option.startsWith("--max-semi-space-size="))).toBe(true);
    for (const pid of childPids(service.child.pid ?? 0)) {
      expect(cmdline(pid)).toEqual(expect.arrayContaining(serviceNodeOptions()));
    }
  });

  it("says in /readyz where a worker keeps its rate limits", async () => {
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe("ready\nrate limits: by address in this worker, by campaign in the primary\n");
  });

  it("serves every address from one worker, both workers serving, and counts its limit whole there", async () => {
    const { campaignKey } = await seedCampaign(db.database.prisma);
    const [zero, one] = addressesBySlot(2);
    const addresses = [...zero, ...one];
    const statuses = new Map<string, number[]>();
    // Five calls from each address, each on a new connection: spread over both workers by
    // connection, an address would get 4 in each.
    for (let round = 0; round < 5; round++) {
      for (const address of addresses) {
        const status = await readFrom(baseUrl, address, campaignKey);
        statuses.set(address, [...(statuses.get(address) ?? []), status]);
      }
    }
    for (const address of addresses) expect(statuses.get(address)).toEqual([200, 200, 200, 200, 429]);
    // Each call is logged after it was answered.
    const logged = () => [...workersByPeer(service.output()).entries()].filter(([peer]) => addresses.includes(peer));
    await waitFor(() => logged().length === addresses.length, "every address's calls logged");
    const byPeer = workersByPeer(service.output());
    for (const address of zero) expect([...(byPeer.get(address) ?? [])]).toEqual([0]);
    for (const address of one) expect([...(byPeer.get(address) ?? [])]).toEqual([1]);
  });

  it("counts a campaign's begin limits across workers (in the primary, without Redis)", async () => {
    const shop = await seedShop(db.database.prisma, sim.control, TEST_MASTER_KEY);
    const begin = (address: string, authTicket: string) =>
      postFrom(baseUrl, address, "/v1/public/purchases:begin", {
        campaignKey: shop.campaignKey,
        offerId: shop.offerId,
        authTicket,
      });
    const [[a, b, c], [d, e]] = addressesBySlot(3).map((slot) => slot.slice(2)) as [string[], string[]];
    // Failed tickets (2 a campaign): a stranger on each worker spends the campaign's; then a
    // stranger with a record is refused before any platform call, on either worker.
    const strangers = [await begin(a as string, "ABCD"), await begin(d as string, "ABCD")];
    expect(strangers.map((r) => r.status)).toEqual([401, 401]);
    expect((await begin(a as string, "ABCD")).status).toBe(429);
    expect((await begin(d as string, "ABCD")).status).toBe(429);
    // Begins the platform vouched for (2 a campaign): one player on each worker, then a third.
    const players = [b, e, c] as string[];
    const statuses = [];
    for (const address of players) {
      const { ticket } = await mintPlayer(sim.control, shop.appId);
      statuses.push((await begin(address, ticket)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("answers /metrics for both workers in one scrape", async () => {
    const { campaignKey } = await seedCampaign(db.database.prisma);
    const [zero, one] = addressesBySlot(4);
    const count = async () => {
      const scraped = parsePrometheusText(await (await fetch(metricsUrl)).text());
      return sample(scraped, "encore_rpc_requests_total", {
        method: "encore.campaign.v1.CampaignService/GetPublicFunding",
        code: "ok",
      });
    };
    const before = await count();
    for (const address of [zero[3], one[3]] as string[]) {
      for (let i = 0; i < 3; i++) expect(await readFrom(baseUrl, address, campaignKey)).toBe(200);
    }
    expect((await count()) - before).toBe(6);
  });

  it("replaces a worker that dies, serving its addresses meanwhile from the other", async () => {
    const { campaignKey } = await seedCampaign(db.database.prisma);
    const [before] = [childPids(service.child.pid ?? 0)];
    const [victim] = before;
    process.kill(victim as number, "SIGKILL");
    await waitFor(() => service.output().includes("worker stopped unexpectedly"), "the primary to notice");
    const [zero, one] = addressesBySlot(5);
    for (const address of [zero[4], one[4]] as string[]) {
      expect(await readFrom(baseUrl, address, campaignKey)).toBe(200);
    }
    await waitFor(() => {
      const now = childPids(service.child.pid ?? 0);
      return now.length === 2 && !now.includes(victim as number);
    }, "a replacement worker");
    // The primary's own series say so, beside the workers'.
    const scrape = async () => parsePrometheusText(await (await fetch(metricsUrl)).text());
    for (let i = 0; i < 100 && sample(await scrape(), "encore_workers_ready") !== 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const scraped = await scrape();
    expect(sample(scraped, "encore_workers_ready")).toBe(2);
    expect(sample(scraped, "encore_worker_stopped_total")).toBe(1);
  });
});

describe.runIf(onPostgres)("the service with WORKERS=2 and TLS", () => {
  it("serves HTTPS over HTTP/1.1 and HTTP/2 from its workers, the handshake in the worker", async () => {
    const db = await createTestDatabase();
    if (db.target.kind !== "postgres") throw new Error("WORKERS needs PostgreSQL");
    const tls = selfSignedCertificate("127.0.0.1");
    const service = startService({
      WORKERS: "2",
      DATABASE_URL: db.target.url,
      ENCORE_MASTER_KEY: TEST_MASTER_KEY.toString("base64"),
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      TLS_CERT_FILE: tls.certFile,
      TLS_KEY_FILE: tls.keyFile,
      LOG_LEVEL: "info",
    });
    try {
      const url = await service.listening();
      expect(url).toMatch(/^https:/);
      const ca = readFileSync(tls.certFile);
      const { campaignKey } = await seedCampaign(db.database.prisma);
      const body = JSON.stringify({ campaignKey });
      const overH1 = await statusFrom(`${url}/v1/public/funding:get`, { campaignKey }, { ca });
      expect(overH1).toBe(200);
      const session = http2.connect(url, { ca });
      try {
        const overH2 = await new Promise<number>((resolve, reject) => {
          const stream = session.request({
            ":method": "POST",
            ":path": "/v1/public/funding:get",
            "content-type": "application/json",
          });
          let status = 0;
          stream.on("response", (headers) => {
            status = Number(headers[":status"]);
          });
          stream.on("error", reject);
          stream.resume();
          stream.on("end", () => resolve(status));
          stream.end(body);
        });
        expect(overH2).toBe(200);
      } finally {
        session.close();
      }
      // Both answered by a worker (the primary serves nothing itself); each logs after it answered.
      const served = () => wholeLines(service.output()).filter((line) => line.includes('"msg":"served"'));
      await waitFor(() => served().length === 2, "both calls' log lines");
      for (const line of served()) expect(JSON.parse(line)).toHaveProperty("worker");
    } finally {
      service.child.kill("SIGKILL");
      await db.drop();
    }
  }, 120_000);
});
