import { isFinal, repeatedBeginAnswer } from "../../../domain/purchase-state.js";
import { PLATFORM_UNAVAILABLE_SAME_REQUEST } from "../../../errors/messages.js";
import { alreadyExists, unavailable } from "../../../errors/status.js";
import {
  abandonUnopenedAttempt,
  findPurchaseRequest,
  type PurchaseRequestRecord,
} from "../../../store/purchase-opening.js";
import { findPurchase, recordTransId } from "../../../store/purchases.js";
import { markKeyRejected } from "../../../usecases/key-rejected.js";
import { orderRefOf } from "../../../usecases/order-ref.js";
import type { ServiceDeps } from "../../deps.js";

export interface KnownRequest {
  campaignKey: string;
  campaignId: string;
  requestId: string;
  /** The player the platform vouched for on this call. */
  playerId: string;
}

export type KnownAnswer = { kind: "answer"; purchaseId: string; orderId: bigint } | { kind: "start-again" };

const POLL_MS = 50;
// Longer than one InitTxn can take, so a concurrent first attempt has finished by then.
const SETTLE_MARGIN_MS = 1000;

/**
 * A begin with a requestId already seen for the campaign (spec 4.3 rule 3, 3.1 last row): the
 * same player gets the same purchase and orderId, or ORDER_REFUSED again when the first attempt
 * was refused or ended unpaid; another player gets 409. While the first attempt's order is still
 * being opened this waits for it, so concurrent begins make exactly one platform order.
 * `start-again`: the first attempt never reached the platform and was abandoned; the caller
 * opens a fresh order under the same requestId.
 */
export async function answerKnownRequest(deps: ServiceDeps, known: KnownRequest): Promise<KnownAnswer> {
  let record = await findPurchaseRequest(deps.db, known.campaignId, known.requestId);
  if (record && record.playerId !== known.playerId) {
    throw alreadyExists("This requestId was already used by a different player.");
  }
  record = await awaitOpening(deps, known, record);
  if (!record) return { kind: "start-again" };
  const refused = () =>
    deps.refuse("ORDER_REFUSED", {
      subject: known.campaignKey,
      message: "The first attempt with this requestId was refused or ended unpaid.",
    });
  if (record.refused || !record.purchaseId || !record.purchase) throw refused();
  const { purchase, purchaseId } = record;
  if (repeatedBeginAnswer(purchase.state) === "order-refused") throw refused();
  if (!purchase.confirmed && !isFinal(purchase.state)) return confirmOpened(deps, known, purchaseId);
  return { kind: "answer", purchaseId, orderId: purchase.orderId };
}

/** Polls while the first attempt's InitTxn may still be running. */
async function awaitOpening(
  deps: ServiceDeps,
  known: KnownRequest,
  first: PurchaseRequestRecord | undefined,
): Promise<PurchaseRequestRecord | undefined> {
  const budget = deps.config.steam.timeoutMs + SETTLE_MARGIN_MS;
  // An attempt begun longer ago than one InitTxn can take is not running any more.
  const begun = first?.purchase?.createTime.getTime() ?? 0;
  if (deps.now().getTime() - begun > budget) return first;
  const deadline = performance.now() + budget;
  let record = first;
  while (record && isOpening(record) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    record = await findPurchaseRequest(deps.db, known.campaignId, known.requestId);
  }
  return record;
}

function isOpening(record: PurchaseRequestRecord): boolean {
  return (
    !record.refused && record.purchase !== undefined && !record.purchase.confirmed && !isFinal(record.purchase.state)
  );
}

/**
 * The first attempt's InitTxn went unanswered: ask the platform whether the order exists. It
 * does: carry on with it. It does not: end the attempt and let the caller open a fresh order.
 */
async function confirmOpened(deps: ServiceDeps, known: KnownRequest, purchaseId: string): Promise<KnownAnswer> {
  const purchase = await findPurchase(deps.db, purchaseId);
  if (!purchase) return { kind: "start-again" };
  const ref = orderRefOf(deps, purchase);
  const query = await deps.steam.queryTxn(ref);
  if (query.kind === "ok") {
    await recordTransId(deps.db, purchase.id, query.value.transid);
    return { kind: "answer", purchaseId: purchase.id, orderId: purchase.orderId };
  }
  if (query.kind === "unavailable") {
    throw unavailable(PLATFORM_UNAVAILABLE_SAME_REQUEST, { cause: query.cause });
  }
  if (query.keyRejected) {
    await markKeyRejected(deps, purchase.linkId, ref.publisherKey);
    throw deps.refuse("PUBLISHER_UNAVAILABLE", {
      subject: known.campaignKey,
      message: "The studio's platform key was rejected.",
    });
  }
  const ended = await abandonUnopenedAttempt(deps.db, {
    purchaseId: purchase.id,
    campaignId: known.campaignId,
    requestId: known.requestId,
    now: deps.now(),
  });
  if (ended) deps.metrics?.purchaseEnded("FAILED", purchase);
  return { kind: "start-again" };
}
