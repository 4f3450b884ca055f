import type { ServiceDeps } from "../core/deps.js";
import { openSecret } from "../core/secret-box.js";
import type { OrderRef } from "../platform/steam/steam-platform.js";
import type { PurchaseRecord } from "../store/purchases.js";

/** How the platform names a purchase's order: live or sandbox book (spec 1.6), app and our order id. */
export function orderRefOf(deps: ServiceDeps, purchase: PurchaseRecord): OrderRef {
  return {
    publisherKey: openSecret(deps.masterKeys, purchase.publisherKeyEncrypted),
    sandbox: purchase.sandbox,
    appid: Number(purchase.appId),
    orderid: purchase.orderId.toString(),
  };
}
