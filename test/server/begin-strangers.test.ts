import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { postFrom } from "../support/post-from.js";
import type { SeededShop } from "../support/seed-purchases.js";

// Spec 8, docs/abuse-limits.md: the campaign key ships in the game, so strangers
// can send begins for it. Junk tickets, from one address or from many, must not lock a genuine
// player out of the campaign's begin limit, and must not spend more than a bounded number of
// ticket checks (AuthenticateUserTicket, on the studio's own key) per window.
const BEGIN_PER_CAMPAIGN = 5;
const FAILED_PER_ADDRESS = 3;
const FAILED_PER_CAMPAIGN = 6;

describe("strangers cannot block a campaign's purchases (spec 8)", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture({
      RATE_LIMIT_PER_ADDRESS: "1000",
      RATE_LIMIT_BEGIN_PER_CAMPAIGN: String(BEGIN_PER_CAMPAIGN),
      RATE_LIMIT_FAILED_TICKETS_PER_ADDRESS: String(FAILED_PER_ADDRESS),
      RATE_LIMIT_FAILED_TICKETS_PER_CAMPAIGN: String(FAILED_PER_CAMPAIGN),
    });
  });
  afterAll(() => f.close());

  const begin = (shop: SeededShop, address: string, authTicket: string, offerId = shop.offerId) =>
    postFrom(f.server.baseUrl, address, "/v1/public/purchases:begin", {
      campaignKey: shop.campaignKey,
      offerId,
      authTicket,
    });
  const genuine = async (shop: SeededShop, address: string) => begin(shop, address, (await f.player(shop)).ticket);
  const ticketChecks = async () => (await f.sim.control.listCalls({ call: "AuthenticateUserTicket" })).length;

  async function sequential(count: number, send: () => Promise<{ status: number }>): Promise<number[]> {
    const statuses = [];
    for (let n = 0; n < count; n++) statuses.push((await send()).status);
    return statuses;
  }

  it("lets a genuine player in after a flood of junk tickets from one address", async () => {
    const shop = await f.shop();
    await f.sim.control.clearCalls();
    const statuses = await sequential(20, () => begin(shop, "127.0.1.1", "ABCD"));
    expect(statuses).toEqual([...Array(FAILED_PER_ADDRESS).fill(401), ...Array(20 - FAILED_PER_ADDRESS).fill(429)]);
    expect(await ticketChecks()).toBe(FAILED_PER_ADDRESS);
    expect((await genuine(shop, "127.0.1.2")).status).toBe(200);
  });

  it("answers an address past its failed tickets 429 before any platform call, whatever its ticket", async () => {
    const shop = await f.shop();
    expect(await sequential(FAILED_PER_ADDRESS, () => begin(shop, "127.0.2.1", "ABCD"))).toEqual(
      Array(FAILED_PER_ADDRESS).fill(401),
    );
    await f.sim.control.clearCalls();
    const junk = await begin(shop, "127.0.2.1", "ABCD");
    expect(junk).toEqual({ status: 429, body: { code: 8, message: expect.any(String), details: [] } });
    // The limit is the address's: a genuine ticket from it waits out the window too.
    expect((await genuine(shop, "127.0.2.1")).status).toBe(429);
    expect(await f.sim.control.listCalls()).toEqual([]);
    // The record is the address's, whatever the campaign: a stranger cannot move on to another key.
    expect((await genuine(await f.shop(), "127.0.2.1")).status).toBe(429);
  });

  it("bounds the ticket checks junk from many addresses spends, and lets genuine players in", async () => {
    const shop = await f.shop();
    await f.sim.control.clearCalls();
    const addresses = Array.from({ length: 20 }, (_, n) => `127.0.3.${n + 1}`);
    const statuses = [];
    for (const address of addresses) statuses.push(await sequential(3, () => begin(shop, address, "ABCD")));
    // The first addresses spend the campaign's failed tickets; past them, an address with a
    // clean record still has its ticket checked once, then it has a record.
    const spenders = FAILED_PER_CAMPAIGN / FAILED_PER_ADDRESS;
    expect(statuses.slice(0, spenders)).toEqual(Array(spenders).fill([401, 401, 401]));
    expect(statuses.slice(spenders)).toEqual(Array(addresses.length - spenders).fill([401, 429, 429]));
    expect(await ticketChecks()).toBe(FAILED_PER_CAMPAIGN + addresses.length - spenders);
    // A player from a clean address is served; the campaign's begin limit was never held.
    for (let n = 0; n < BEGIN_PER_CAMPAIGN; n++) expect((await genuine(shop, `127.0.3.${100 + n}`)).status).toBe(200);
    // Vouched begins still count (spec 8): past the campaign's limit, 429.
    expect((await genuine(shop, "127.0.3.200")).status).toBe(429);
  });

  it("lets a genuine player in after a concurrent burst of junk from many addresses", async () => {
    const shop = await f.shop();
    await f.sim.control.clearCalls();
    const addresses = Array.from({ length: 10 }, (_, n) => `127.0.4.${n + 1}`);
    // A distinct junk ticket per address, to count each address's ticket checks in the log.
    const junkOf = (n: number) => `ABCD${n.toString(16).padStart(4, "0")}`;
    const burst = await Promise.all(
      addresses.flatMap((address, n) => Array.from({ length: 5 }, () => begin(shop, address, junkOf(n)))),
    );
    expect(burst.every((res) => res.status === 401 || res.status === 429)).toBe(true);
    const checks = await f.sim.control.listCalls({ call: "AuthenticateUserTicket" });
    // Begins in flight count as failures until answered, so a burst spends no more either.
    expect(checks.length).toBeLessThanOrEqual(FAILED_PER_CAMPAIGN + addresses.length);
    for (const [n] of addresses.entries()) {
      expect(checks.filter((call) => call.params.ticket === junkOf(n)).length).toBeLessThanOrEqual(FAILED_PER_ADDRESS);
    }
    expect((await genuine(shop, "127.0.4.100")).status).toBe(200);
  });

  it("does not let begins refused before the platform hold the campaign's limit", async () => {
    const shop = await f.shop();
    const statuses = await sequential(3 * BEGIN_PER_CAMPAIGN, () => begin(shop, "127.0.5.1", "ABCD", "no-such-offer"));
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect((await genuine(shop, "127.0.5.2")).status).toBe(200);
  });
});
