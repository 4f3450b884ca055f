import type { ServiceDeps } from "../../../core/deps.js";
import { repeatedBeginAnswer } from "../../../domain/purchase-state.js";
import { PLATFORM_UNAVAILABLE_SAME_REQUEST } from "../../../errors/messages.js";
import { alreadyExists, unavailable } from "../../../errors/status.js";
import { findPurchaseRequest, type PurchaseRequestRecord } from "../../../store/purchase-opening.js";
import { endPurchase, findPurchase, recordTransId } from "../../../store/purchases.js";
import { markKeyRejected } from "../../../usecases/key-rejected.js";
import { orderRefOf } from "../../../usecases/order-ref.js";
import { answerOf } from "./open-order.js";
import type { Openings } from "./openings.js";

export interface KnownRequest {
  campaignKey: string;
  campaignId: string;
  requestId: string;
  /** The player the platform vouched for on this call. */
  playerId: string;
}

export type KnownAnswer = { purchase: string; orderId: bigint } | "open-afresh";

// Longer than one InitTxn can take after its purchase was written: a first attempt whose end is
// not recorded by then had its process die, and its InitTxn is over too.
const INIT_TXN_MARGIN_MS = 1000;

/**
 * A begin with a requestId already seen for the campaign (spec 4.3 rule 3, 3.1 last row),
 * answered from what its first attempt recorded (docs/settlement.md "A begin repeated"): the
 * same player gets the same purchase and orderId, or ORDER_REFUSED again when the first attempt
 * was refused or ended unpaid; another player gets 409. While the first attempt's InitTxn runs on
 * this replica, its answer is awaited; on another, 503 (retry with the same requestId). Once it
 * ended unanswered, QueryTxn says whether the order exists: it does, carry on with it; it does
 * not, the attempt is abandoned and "open-afresh" tells the caller to open a fresh order.
 */
export async function answerKnownRequest(
  deps: ServiceDeps,
  openings: Openings,
  known: KnownRequest,
): Promise<KnownAnswer> {
  const record = await findPurchaseRequest(deps.db, known.campaignId, known.requestId);
  // Freed since the begin read it: its first attempt was abandoned by a concurrent retry.
  if (!record) return "open-afresh";
  if (record.playerId !== known.playerId) {
    throw alreadyExists("This requestId was already used by a different player.");
  }
  const first = record.purchase;
  if (record.refused || !first) throw refusedAgain(deps, known);
  const same = { campaignKey: known.campaignKey, purchaseId: first.id, orderId: first.orderId };
  // Running on this replica: not over, however long it took.
  const running = openings.endOf(first.id);
  const initTxnOver = first.initTxnEndTime !== null || (running === undefined && ranOut(deps, first));
  switch (repeatedBeginAnswer({ state: first.state, opened: first.transId !== null, initTxnOver })) {
    case "same-purchase":
      return { purchase: first.id, orderId: first.orderId };
    case "order-refused":
      throw refusedAgain(deps, known);
    case "opening": {
      if (running) return answerOf(deps, await running, same);
      throw unavailable(
        "The first attempt with this requestId is still opening its order; retry with the same requestId.",
      );
    }
    case "ask-platform":
      return askPlatform(deps, known, first.id);
  }
}

function refusedAgain(deps: ServiceDeps, known: KnownRequest) {
  return deps.refuse("ORDER_REFUSED", {
    subject: known.campaignKey,
    message: "The first attempt with this requestId was refused or ended unpaid.",
  });
}

/** Whether the first attempt's InitTxn, never recorded as ended, can no longer be running. */
function ranOut(deps: ServiceDeps, first: NonNullable<PurchaseRequestRecord["purchase"]>): boolean {
  return deps.now().getTime() - first.createTime.getTime() > deps.config.steam.timeoutMs + INIT_TXN_MARGIN_MS;
}

/**
 * The first attempt's InitTxn ended without an answer: asks the platform once whether the order
 * exists. It does: carry on with it (recorded, so the next repeat answers from the row). It does
 * not: the attempt ends FAILED, its requestId freed, and the caller opens a fresh order.
 */
async function askPlatform(deps: ServiceDeps, known: KnownRequest, purchaseId: string): Promise<KnownAnswer> {
  const purchase = await findPurchase(deps.db, purchaseId);
  if (!purchase) return "open-afresh";
  const ref = orderRefOf(deps, purchase);
  const query = await deps.steam.queryTxn(ref);
  if (query.kind === "ok") {
    await recordTransId(deps.db, purchase.id, query.value.transid);
    return { purchase: purchase.id, orderId: purchase.orderId };
  }
  if (query.kind === "unavailable") throw unavailable(PLATFORM_UNAVAILABLE_SAME_REQUEST, { cause: query.cause });
  if (query.keyRejected) {
    await markKeyRejected(deps, purchase.linkId, ref.publisherKey);
    throw deps.refuse("PUBLISHER_UNAVAILABLE", {
      subject: known.campaignKey,
      message: "The studio's platform key was rejected.",
    });
  }
  // Abandoned, only while still unconfirmed (a concurrent QueryTxn that found the order wins,
  // spec 3.1), its reservation given back and its requestId freed for the fresh order.
  const freeRequest = { campaignId: known.campaignId, requestId: known.requestId };
  const now = deps.now();
  if (await endPurchase(deps.db, { purchaseId, to: "FAILED", now, guard: "unconfirmed", freeRequest })) {
    deps.metrics?.purchaseEnded("FAILED", purchase);
  }
  return "open-afresh";
}
