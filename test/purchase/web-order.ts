import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { ServiceDeps } from "../../src/core/deps.js";
import { toCents } from "../../src/domain/money.js";
import { newOrderId } from "../../src/domain/order-id.js";
import { openPurchase } from "../../src/store/purchase-opening.js";
import { findPurchase, recordInitTxnEnds } from "../../src/store/purchases.js";
import { settlePurchase } from "../../src/usecases/settle-purchase.js";
import type { SeededShop } from "../support/seed-purchases.js";
import type { PurchaseFixture } from "./purchase-fixture.js";

export interface WebOrder {
  id: string;
  orderId: string;
  /**
   * What the player's return from Steam's approval page does: settle, as the one caller that
   * may finalize a web order (a declined order reads as the player's: CANCELLED).
   */
  returned(overrides?: Partial<ServiceDeps>): ReturnType<typeof settlePurchase>;
  state(): Promise<string>;
}

/**
 * A web order as the campaign's public page opens one (docs/game-integration.md "Funding from
 * the web"): the purchase written by the store's opening with channel WEB (its credit reserved),
 * its order opened on the platform with the player's Steam id. The page's own begin and return
 * are the public page's tests; these settle what such an order becomes.
 */
export async function openWebOrder(f: PurchaseFixture, shop: SeededShop): Promise<WebOrder> {
  const player = await f.player(shop);
  const facts = await f.db.offer.findUniqueOrThrow({ where: { id: shop.offerId } });
  const id = randomUUID();
  const orderId = newOrderId();
  const opened = await openPurchase(f.db, {
    purchaseId: id,
    campaignId: shop.campaignId,
    offerId: shop.offerId,
    linkId: shop.linkId,
    orderId,
    playerId: player.steamid,
    priceNanos: facts.priceNanos,
    creditNanos: facts.creditNanos,
    sandbox: false,
    language: "en",
    channel: "WEB",
    requestId: undefined,
    now: new Date(),
  });
  expect(opened).toBe("opened");
  const init = await f.steam.initTxn({
    publisherKey: shop.publisherKey,
    sandbox: false,
    orderid: orderId.toString(),
    steamid: player.steamid,
    appid: shop.appId,
    language: "en",
    currency: "USD",
    items: [{ itemid: 1, qty: 1, amountCents: toCents(facts.priceNanos), description: "Funding", category: "funding" }],
    ipaddress: "203.0.113.7",
  });
  if (init.kind !== "ok") throw new Error(`InitTxn: ${init.kind}`);
  await recordInitTxnEnds(f.db, [{ purchaseId: id, transId: init.value.transid, now: new Date() }]);
  return {
    id,
    orderId: orderId.toString(),
    async returned(overrides = {}) {
      const purchase = await findPurchase(f.db, id);
      if (!purchase) throw new Error("no such purchase");
      return settlePurchase(f.deps(overrides), purchase, { playerReturned: true, authorized: false });
    },
    async state() {
      return (await f.db.purchase.findUniqueOrThrow({ where: { id } })).state;
    },
  };
}
