import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DistributorLink_State } from "../../gen/encore/campaign/v1/distributor_link_pb.js";
import { DOLLAR } from "../support/seed.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { ownerClient } from "./owner-client.js";
import { pausedAfterQuery } from "./paused-platform.js";
import { minutesFromNow, type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// Spec 3.3: a rejected key marks the link STATE_CREDENTIAL_INVALID until the studio rotates it.
// A call made with the old key and rejected while the rotation lands must not undo it.
describe("a key rejected while the studio rotates it", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  /** A begun purchase, the studio's owner client and its link's name. */
  async function begunWithOwner() {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(200);
    const owner = await ownerClient(f, shop.accountId);
    const { purchase, orderId } = res.body as { purchase: string; orderId: string };
    return { shop, owner, link: `accounts/${shop.accountId}/distributorLinks/${shop.linkId}`, purchase, orderId };
  }

  /** A sweeper whose QueryTxn (made with the link's current key) is rejected, paused after the answer. */
  async function sweepRejectedAndPaused() {
    await f.sim.control.injectFault({ call: "QueryTxn", kind: "rejectKey" });
    const paused = pausedAfterQuery(f.steam);
    const sweep = f.sweeper({ now: minutesFromNow(2) }, undefined, paused.platform).runOnce();
    await paused.queried;
    return { sweep, release: paused.release };
  }

  async function newKeyFor(shop: SeededShop): Promise<string> {
    const key = `PK${randomBytes(12).toString("hex").toUpperCase()}`;
    await f.sim.control.addPublisherKey(key, [shop.appId]);
    return key;
  }

  it("keeps the rotated link ACTIVE when the old key's rejection arrives after the rotation", async () => {
    const { shop, owner, link } = await begunWithOwner();
    const { sweep, release } = await sweepRejectedAndPaused();
    const rotated = await owner.updateDistributorLink({
      distributorLink: { name: link, steam: { publisherKey: await newKeyFor(shop) } },
      updateMask: { paths: ["steam.publisher_key"] },
    });
    expect(rotated.state).toBe(DistributorLink_State.ACTIVE);
    release();
    expect(await sweep).toMatchObject({ looked: 1, unavailable: 1 });
    const after = await owner.getDistributorLink({ name: link });
    expect(after.state).toBe(DistributorLink_State.ACTIVE);
    expect(after.etag).toBe(rotated.etag);
  });

  it("marks the link CREDENTIAL_INVALID, with a new etag, when it still holds the rejected key", async () => {
    const { owner, link } = await begunWithOwner();
    const before = await owner.getDistributorLink({ name: link });
    const { sweep, release } = await sweepRejectedAndPaused();
    release();
    await sweep;
    const after = await owner.getDistributorLink({ name: link });
    expect(after.state).toBe(DistributorLink_State.CREDENTIAL_INVALID);
    expect(after.etag).not.toBe(before.etag);
  });

  // The replica that began a purchase completes it from the begin's record, which holds the key
  // the order was opened with (docs/performance.md "A complete after its begin").
  it("credits at the first complete when the key the purchase was begun with was replaced and revoked since", async () => {
    const { shop, owner, link, purchase, orderId } = await begunWithOwner();
    await f.sim.control.approveOrder(orderId);
    await owner.updateDistributorLink({
      distributorLink: { name: link, steam: { publisherKey: await newKeyFor(shop) } },
      updateMask: { paths: ["steam.publisher_key"] },
    });
    await f.sim.control.revokePublisherKey(shop.publisherKey);
    await f.sim.control.clearCalls();

    const completed = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ state: "STATE_CREDITED" });
    // The old key's QueryTxn was refused, then the new key's settled it; the link keeps the new key.
    expect((await f.sim.control.listCalls()).map((call) => call.call)).toEqual(["QueryTxn", "QueryTxn", "FinalizeTxn"]);
    expect((await owner.getDistributorLink({ name: link })).state).toBe(DistributorLink_State.ACTIVE);
  });
});
