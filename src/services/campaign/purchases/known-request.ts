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

// While the first attempt's InitTxn may still be running, the platform is asked again after
// these pauses, doubling: an order opened meanwhile is answered within a pause.
const FIRST_PAUSE_MS = 50;
const LONGEST_PAUSE_MS = 800;
// Longer than one InitTxn can take, so a concurrent first attempt has finished by then.
const SETTLE_MARGIN_MS = 1000;

/**
 * A begin with a requestId already seen for the campaign (spec 4.3 rule 3, 3.1 last row): the
 * same player gets the same purchase and orderId, or ORDER_REFUSED again when the first attempt
 * was refused or ended unpaid; another player gets 409. A first attempt whose order nobody has
 * seen the platform confirm (its begin records nothing after InitTxn: docs/performance.md, "The
 * transaction id") is answered once QueryTxn finds the order; while its InitTxn may still be
 * running this asks again, so concurrent begins make exactly one platform order.
 * `start-again`: the first attempt never reached the platform and was abandoned; the caller
 * opens a fresh order under the same requestId.
 */
export async function answerKnownRequest(deps: ServiceDeps, known: KnownRequest): Promise<KnownAnswer> {
  let record = await findPurchaseRequest(deps.db, known.campaignId, known.requestId);
  if (record && record.playerId !== known.playerId) {
    throw alreadyExists("This requestId was already used by a different player.");
  }
  const until = settledBy(deps, record);
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, LONGEST_PAUSE_MS)) {
    if (!record) return { kind: "start-again" };
    if (record.refused || !record.purchaseId || !record.purchase) throw refusedAgain(deps, known);
    const { purchase, purchaseId } = record;
    if (repeatedBeginAnswer(purchase.state) === "order-refused") throw refusedAgain(deps, known);
    if (purchase.confirmed || isFinal(purchase.state)) return { kind: "answer", purchaseId, orderId: purchase.orderId };
    const settled = performance.now() >= until;
    const asked = await askPlatform(deps, known, purchaseId, settled);
    if (asked) return asked;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, until - performance.now())));
    record = await findPurchaseRequest(deps.db, known.campaignId, known.requestId);
  }
}

function refusedAgain(deps: ServiceDeps, known: KnownRequest) {
  return deps.refuse("ORDER_REFUSED", {
    subject: known.campaignKey,
    message: "The first attempt with this requestId was refused or ended unpaid.",
  });
}

/** When (on performance.now()) the first attempt's InitTxn is over, whatever it answered. */
function settledBy(deps: ServiceDeps, first: PurchaseRequestRecord | undefined): number {
  const budget = deps.config.steam.timeoutMs + SETTLE_MARGIN_MS;
  const begun = first?.purchase?.createTime.getTime() ?? 0;
  return performance.now() + Math.max(0, budget - (deps.now().getTime() - begun));
}

/**
 * Asks the platform whether the first attempt's order exists. It does: carry on with it. It does
 * not and the first attempt's InitTxn is over (`settled`): end the attempt and let the caller
 * open a fresh order. It does not yet: undefined, ask again later.
 */
async function askPlatform(
  deps: ServiceDeps,
  known: KnownRequest,
  purchaseId: string,
  settled: boolean,
): Promise<KnownAnswer | undefined> {
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
  if (!settled) return undefined;
  const ended = await abandonUnopenedAttempt(deps.db, {
    purchaseId: purchase.id,
    campaignId: known.campaignId,
    requestId: known.requestId,
    now: deps.now(),
  });
  if (ended) deps.metrics?.purchaseEnded("FAILED", purchase);
  return { kind: "start-again" };
}
