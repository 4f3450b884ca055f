import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { readMoney } from "../support/seed-purchases.js";
import { type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// The outstanding limit under concurrency (spec 4.3, DESIGN 3): begins racing each other for the
// last of a link's room, while credits of earlier purchases move their reservations into the
// outstanding, never reserve past the limit, and refuse no begin that the limit leaves room for.

describe("the outstanding limit under concurrent begins and credits", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  it("lets exactly as many begins reserve as the room allows while earlier purchases are credited", async () => {
    // 10 dollars of limit, 4 outstanding: room for 6 purchases of a dollar's credit.
    const shop = await f.shop({
      outstandingNanos: 4n * DOLLAR,
      outstandingLimitNanos: 10n * DOLLAR,
      offer: { creditNanos: DOLLAR },
    });
    const buy = async () => {
      const player = await f.player(shop);
      return f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    };
    // Three purchases take 3 of the room and are approved by their players.
    const earlier = [await buy(), await buy(), await buy()];
    for (const res of earlier) {
      expect(res.status).toBe(200);
      await f.sim.control.approveOrder(res.body.orderId);
    }
    expect(await readMoney(f.db, shop)).toMatchObject({ outstandingNanos: 4n * DOLLAR, reservedNanos: 3n * DOLLAR });

    // Ten players begin at once, while the three earlier purchases are completed.
    const players = await Promise.all(Array.from({ length: 10 }, () => f.player(shop)));
    const [begins, completes] = await Promise.all([
      Promise.all(
        players.map((player) =>
          f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket }),
        ),
      ),
      Promise.all(
        earlier.map((res) =>
          f.complete({
            campaignKey: shop.campaignKey,
            purchase: res.body.purchase,
            orderId: res.body.orderId,
            authorized: true,
          }),
        ),
      ),
    ]);

    expect(completes.map((res) => res.body.state)).toEqual(["STATE_CREDITED", "STATE_CREDITED", "STATE_CREDITED"]);
    const opened = begins.filter((res) => res.status === 200);
    const refused = begins.filter((res) => res.status !== 200);
    expect(opened).toHaveLength(3);
    expect(refused.map((res) => [res.status, res.body.details[0]?.reason])).toEqual(
      Array.from({ length: 7 }, () => [400, "PUBLISHER_LIMIT_REACHED"]),
    );
    // The three credited moved into the outstanding; the three opened are reserved: the limit
    // exactly, never past it.
    expect(await readMoney(f.db, shop)).toMatchObject({ outstandingNanos: 7n * DOLLAR, reservedNanos: 3n * DOLLAR });
    const open = await f.db.purchase.count({ where: { linkId: shop.linkId, state: "INITIATED" } });
    expect(open).toBe(3);
  });
});
