import { createHash } from "node:crypto";
import type { ServiceDeps } from "../../core/deps.js";
import { toCents } from "../../domain/money.js";
import { PLATFORM_UNAVAILABLE_SAME_REQUEST } from "../../errors/messages.js";
import { unavailable } from "../../errors/status.js";
import { forgetRefusedOrder } from "../../store/purchase-opening.js";
import type { InitTxnEndRecord } from "../../store/purchases.js";
import { markKeyRejected } from "../key-rejected.js";
import type { InitTxnEnd } from "./openings.js";

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
  /** A web order: approved in a browser, for the player at this IPv4 address (reference 3.1 "Web flow"). */
  web?: { ipAddress: string };
}

/** A begin's answer: the purchase, its order, and a web order's approval page when it is known. */
export interface OrderAnswer {
  purchase: string;
  orderId: bigint;
  steamUrl?: string;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const MAX_DESCRIPTION = 128;

/**
 * Opens the platform order for a purchase already written INITIATED with its order id and its
 * credit reserved, and records how InitTxn ended, so a begin repeated with the same requestId
 * answers from the row (docs/settlement.md "A begin repeated"). The price is the stored offer's,
 * never a request's (spec 1.5).
 * - Opened: the platform's transaction id is recorded with the end.
 * - Refused: the purchase is forgotten, its reservation released, the refusal remembered for the
 *   requestId (a rejected key also marks the link STATE_CREDENTIAL_INVALID).
 * - Unanswered: the order may exist at the platform, so the purchase stays INITIATED with its
 *   reservation and only the end is recorded; a begin retried with the requestId, or the
 *   settlement sweeper, asks the platform (QueryTxn) and carries on with that one order or ends
 *   the attempt FAILED.
 */
export async function openOrder(
  deps: ServiceDeps,
  order: OrderToOpen,
  recordEnd: (end: InitTxnEndRecord) => Promise<void>,
): Promise<InitTxnEnd> {
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
    ...(order.web && { webSession: { userSession: "web" as const, ipAddress: order.web.ipAddress } }),
  });
  if (result.kind === "refused") {
    if (result.keyRejected) await markKeyRejected(deps, order.linkId, order.publisherKey);
    await forgetRefusedOrder(deps.db, order);
    return { kind: "refused", code: result.code };
  }
  const transId = result.kind === "ok" ? result.value.transid : null;
  const steamUrl = result.kind === "ok" ? result.value.steamUrl : undefined;
  await recordEnd({
    purchaseId: order.purchaseId,
    transId,
    ...(steamUrl !== undefined && { steamUrl }),
    now: deps.now(),
  }).catch((error: unknown) =>
    // A hint only: without it a repeated begin asks QueryTxn. The order is open (or may be), so
    // the begin's own answer must not depend on it.
    deps.logger.warn({ err: error, purchaseId: order.purchaseId }, "the end of InitTxn could not be recorded"),
  );
  if (result.kind !== "ok") return { kind: "unanswered", cause: result.cause };
  return { kind: "opened", transId: result.value.transid, ...(steamUrl !== undefined && { steamUrl }) };
}

/** What a begin answers once its order's InitTxn ended: the handle, ORDER_REFUSED or 503. */
export function answerOf(
  deps: ServiceDeps,
  end: InitTxnEnd,
  order: { campaignKey: string; purchaseId: string; orderId: bigint },
): OrderAnswer {
  if (end.kind === "opened") {
    const { steamUrl } = end;
    return { purchase: order.purchaseId, orderId: order.orderId, ...(steamUrl !== undefined && { steamUrl }) };
  }
  if (end.kind === "unanswered") throw unavailable(PLATFORM_UNAVAILABLE_SAME_REQUEST, { cause: end.cause });
  throw deps.refuse("ORDER_REFUSED", {
    subject: order.campaignKey,
    message: `The platform would not open the order (${end.code}).`,
  });
}

/** The platform's item id is a uint32 for reports only (reference 3.5); derived stably from the offer id. */
export function itemIdOf(offerId: string): number {
  return createHash("sha256").update(offerId).digest().readUInt32BE(0);
}
