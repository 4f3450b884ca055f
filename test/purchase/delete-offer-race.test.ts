import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { onPostgres } from "../support/test-database.js";
import { ownerClient } from "./owner-client.js";
import { type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// Spec 3.3: DeleteOffer deletes an offer nobody bought and deactivates one somebody bought;
// a begin racing it is either refused OFFER_INACTIVE or opens a purchase that keeps the offer.
describe("DeleteOffer against a concurrent begin", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  async function shopWithOwner() {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const owner = await ownerClient(f, shop.accountId);
    const offerName = `accounts/${shop.accountId}/campaigns/${shop.campaignId}/offers/${shop.offerId}`;
    return { shop, deleteOffer: () => owner.deleteOffer({ name: offerName }) };
  }

  async function outcome(shop: SeededShop) {
    const offer = await f.db.offer.findUnique({ where: { id: shop.offerId } });
    const purchases = await f.db.purchase.count({ where: { offerId: shop.offerId } });
    return { offer, purchases };
  }

  it("refuses a begin whose offer was deleted after it was read, OFFER_INACTIVE, not a fault", async () => {
    const { shop, deleteOffer } = await shopWithOwner();
    const player = await f.player(shop);
    await f.sim.control.clearCalls();
    // The begin has read the offer and waits on the platform's ticket check when the delete lands.
    await f.sim.control.injectFault({ call: "AuthenticateUserTicket", kind: "latency", ms: 500 });
    const begin = f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    while ((await f.sim.control.listCalls({ call: "AuthenticateUserTicket" })).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await deleteOffer();
    const res = await begin;
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ reason: "OFFER_INACTIVE" });
    expect(await outcome(shop)).toEqual({ offer: null, purchases: 0 });
    expect((await f.db.distributorLink.findUniqueOrThrow({ where: { id: shop.linkId } })).reservedNanos).toBe(0n);
  });

  it("deactivates, not fails, when a purchase of the offer commits while the delete waits on it", async (context) => {
    if (!onPostgres(f.server.db)) context.skip();
    const { shop, deleteOffer } = await shopWithOwner();
    let commit = () => {};
    const committing = new Promise<void>((resolve) => {
      commit = resolve;
    });
    // A begin's transaction that has written its purchase and not committed yet.
    const opening = f.db.$transaction(
      async (tx) => {
        await tx.purchase.create({
          data: {
            id: randomUUID(),
            campaignId: shop.campaignId,
            offerId: shop.offerId,
            linkId: shop.linkId,
            orderId: BigInt(Date.now()),
            playerId: "76561198000000099",
            priceNanos: 3n * DOLLAR,
            creditNanos: 3n * DOLLAR,
            sandbox: false,
            language: "english",
          },
        });
        await committing;
      },
      { timeout: 20_000 },
    );
    const deleting = deleteOffer();
    // The delete is waiting on the uncommitted purchase's hold on the offer row.
    while ((await waitingOnLocks()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    commit();
    await opening;
    await deleting;
    const after = await outcome(shop);
    expect(after.purchases).toBe(1);
    expect(after.offer?.active).toBe(false);
  });

  async function waitingOnLocks(): Promise<number> {
    const rows = await f.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    return rows[0]?.n ?? 0;
  }

  it("never fails either call when they race: deleted unbought, or kept inactive with its purchase", async (context) => {
    if (!onPostgres(f.server.db)) context.skip();
    const rounds = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const { shop, deleteOffer } = await shopWithOwner();
        const player = await f.player(shop);
        const [begin, deleted] = await Promise.all([
          f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket }),
          deleteOffer().then(
            () => "ok",
            (error: unknown) => error,
          ),
        ]);
        return { shop, begin, deleted };
      }),
    );
    for (const { shop, begin, deleted } of rounds) {
      expect(deleted).toBe("ok");
      const after = await outcome(shop);
      if (begin.status === 200) {
        expect(after.purchases).toBe(1);
        expect(after.offer?.active).toBe(false);
      } else {
        expect(begin.status).toBe(400);
        expect(begin.body.details[0]).toMatchObject({ reason: "OFFER_INACTIVE" });
        expect(after).toEqual({ offer: null, purchases: 0 });
      }
    }
  });
});
