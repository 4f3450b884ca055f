import { createHash } from "node:crypto";
import { toCents } from "../../../domain/money.js";
import { PLATFORM_UNAVAILABLE_SAME_REQUEST } from "../../../errors/messages.js";
import { unavailable } from "../../../errors/status.js";
import { forgetRefusedOrder } from "../../../store/purchase-opening.js";
import { markKeyRejected } from "../../../usecases/key-rejected.js";
import type { ServiceDeps } from "../../deps.js";

export interface OrderToOpen {
  campaignKey: string;
  campaignId: string;
  requestId: string | undefined;
  purchaseId: string;
  orderId: bigint;
  appId: bigint;
  linkId: string;
  publisherKey: string;
  sandbox: boolean;
  steamid: string;
  language: string;
  offer: { id: string; displayName: string; priceNanos: bigint };
  /** The player's socket address; sent only when it is IPv4 (reference 3.5 `ipaddress`). */
  clientAddress: string;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const MAX_DESCRIPTION = 128;

/**
 * Opens the platform order for a purchase already written INITIATED with its order id and its
 * credit reserved. The price is the stored offer's, never a request's (spec 1.5).
 * - Opened: nothing more is written (one statement less a purchase; docs/performance.md, "The
 *   transaction id"): a caller that must know whether the order exists asks QueryTxn, and
 *   complete records the platform's transaction id with the AUTHORIZED it writes anyway.
 * - Refused: the purchase is forgotten, its reservation released, the refusal remembered for the
 *   requestId; ORDER_REFUSED (a rejected key also marks the link STATE_CREDENTIAL_INVALID).
 * - Unanswered: 503. The order may exist at the platform, so the purchase stays INITIATED with
 *   its reservation; a begin retried with the requestId, or the settlement sweeper, asks the
 *   platform (QueryTxn) and either carries on with that one order or ends the attempt FAILED.
 */
export async function openOrder(deps: ServiceDeps, order: OrderToOpen): Promise<void> {
  const result = await deps.steam.initTxn({
    publisherKey: order.publisherKey,
    sandbox: order.sandbox,
    orderid: order.orderId.toString(),
    steamid: order.steamid,
    appid: Number(order.appId),
    language: order.language,
    currency: "USD",
    items: [
      {
        itemid: itemIdOf(order.offer.id),
        qty: 1,
        amountCents: toCents(order.offer.priceNanos),
        description: [...order.offer.displayName].slice(0, MAX_DESCRIPTION).join(""),
        category: "funding",
      },
    ],
    ...(IPV4.test(order.clientAddress) ? { ipaddress: order.clientAddress } : {}),
  });
  if (result.kind === "ok") return;
  if (result.kind === "unavailable") {
    throw unavailable(PLATFORM_UNAVAILABLE_SAME_REQUEST, { cause: result.cause });
  }
  if (result.keyRejected) await markKeyRejected(deps, order.linkId, order.publisherKey);
  await forgetRefusedOrder(deps.db, {
    purchaseId: order.purchaseId,
    campaignId: order.campaignId,
    requestId: order.requestId,
  });
  throw deps.refuse("ORDER_REFUSED", {
    subject: order.campaignKey,
    message: `The platform would not open the order (${result.code}).`,
  });
}

/** The platform's item id is a uint32 for reports only (reference 3.5); derived stably from the offer id. */
export function itemIdOf(offerId: string): number {
  return createHash("sha256").update(offerId).digest().readUInt32BE(0);
}
