import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { readMoney } from "../support/seed-purchases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// Spec 4.3 rule 3 and 4.5: a begin repeated with its requestId is answered from what its first
// attempt recorded, never by polling (docs/settlement.md "A begin repeated"): on the replica
// running the first attempt's InitTxn it awaits that one's end; elsewhere, while that InitTxn may
// still run, it answers 503 at once, and the game's retry gets the first attempt's answer.
const STEAM_TIMEOUT_MS = "3000";

describe("purchases:begin repeated while its first attempt's InitTxn runs elsewhere", () => {
  let f: PurchaseFixture;
  let replica: TestServer;
  beforeAll(async () => {
    f = await startPurchaseFixture({ STEAM_TIMEOUT_MS });
    // A second instance of the service over the same database and the same platform.
    replica = await startTestServer({
      db: f.server.db,
      env: { STEAM_API_URL: f.sim.url, STEAM_STORE_URL: f.sim.storeUrl, STEAM_TIMEOUT_MS, LOG_LEVEL: "silent" },
    });
  });
  afterAll(async () => {
    await replica?.close();
    await f?.close();
  });

  async function setUp() {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    const body = (requestId: string) => ({
      campaignKey: shop.campaignKey,
      offerId: shop.offerId,
      authTicket: player.ticket,
      requestId,
    });
    const written = async (requestId: string) => {
      while (!(await f.db.purchaseRequest.findFirst({ where: { campaignId: shop.campaignId, requestId } }))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    return { shop, body, written };
  }

  it("answers 503 at once on the other replica, and the same purchase once the order opened", async () => {
    const { shop, body, written } = await setUp();
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "InitTxn", kind: "latency", ms: 2000 });
    const first = f.begin(body("elsewhere-1"));
    await written("elsewhere-1");
    const asked = Date.now();
    const meanwhile = await replica.rest("POST", "/v1/public/purchases:begin", body("elsewhere-1"));
    expect(meanwhile.status).toBe(503);
    expect(meanwhile.body).toMatchObject({ code: 14 });
    // Without waiting for the first attempt's InitTxn (2 s) or asking the platform.
    expect(Date.now() - asked).toBeLessThan(1000);
    const opened = await first;
    expect(opened.status).toBe(200);
    const again = await replica.rest("POST", "/v1/public/purchases:begin", body("elsewhere-1"));
    expect(again.body).toEqual(opened.body);
    expect(await f.sim.control.listCalls({ call: "InitTxn" })).toHaveLength(1);
    expect(await f.sim.control.listCalls({ call: "QueryTxn" })).toEqual([]);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
  });

  it("asks the platform once a first attempt that recorded no end can no longer be running", async () => {
    const { shop, body } = await setUp();
    // InitTxn never reached the platform, and the process died before it recorded that.
    await f.sim.control.injectFault({ call: "InitTxn", kind: "http5xx", status: 502 });
    expect((await f.begin(body("died-1"))).status).toBe(503);
    const [first] = await f.db.purchase.findMany({ where: { campaignId: shop.campaignId } });
    await f.db.purchase.update({ where: { id: first?.id }, data: { initTxnEndTime: null } });
    // Young enough that its InitTxn could still be running somewhere: not asked, not abandoned.
    await f.sim.control.clearCalls();
    expect((await replica.rest("POST", "/v1/public/purchases:begin", body("died-1"))).status).toBe(503);
    expect(await f.sim.control.listCalls({ call: "QueryTxn" })).toEqual([]);
    // Older than any InitTxn: the platform does not know the order, so a fresh one is opened.
    await f.db.purchase.update({ where: { id: first?.id }, data: { createTime: new Date(Date.now() - 60_000) } });
    const fresh = await replica.rest("POST", "/v1/public/purchases:begin", body("died-1"));
    expect(fresh.status).toBe(200);
    expect(fresh.body.orderId).not.toBe(first?.orderId.toString());
    expect(await f.sim.control.listCalls({ call: "QueryTxn" })).toHaveLength(1);
    expect((await f.db.purchase.findUniqueOrThrow({ where: { id: first?.id } })).state).toBe("FAILED");
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
  });

  it("answers a repeat awaiting an InitTxn that timed out 503 too, with no second order", async () => {
    const { shop, body, written } = await setUp();
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "InitTxn", kind: "timeout" });
    const first = f.begin(body("timeout-1"));
    await written("timeout-1");
    const twin = await f.begin(body("timeout-1"));
    expect((await first).status).toBe(503);
    expect(twin.status).toBe(503);
    expect(twin.body).toMatchObject({ code: 14 });
    expect(await f.sim.control.listCalls({ call: "InitTxn" })).toHaveLength(1);
    // Its end is recorded: the next retry asks the platform at once and opens a fresh order.
    const retried = await f.begin(body("timeout-1"));
    expect(retried.status).toBe(200);
    expect(await f.sim.control.listCalls({ call: "InitTxn" })).toHaveLength(2);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
  });
});
