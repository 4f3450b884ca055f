import { randomUUID } from "node:crypto";
import type { ServiceDeps } from "../../core/deps.js";
import { groupWrites } from "../../core/group-writes.js";
import { openSecret } from "../../core/secret-box.js";
import { beginRefusal } from "../../domain/begin-refusal.js";
import { newOrderId } from "../../domain/order-id.js";
import { START_STATE } from "../../domain/purchase-state.js";
import { readRequestId } from "../../domain/request-id.js";
import { notFound, unavailable } from "../../errors/status.js";
import { toSteamLanguage } from "../../platform/steam/steam-language.js";
import { type BeginFacts, findBeginFacts, openPurchase } from "../../store/purchase-opening.js";
import { type InitTxnEndRecord, recordInitTxnEnds } from "../../store/purchases.js";
import type { BegunPurchases } from "./begun-purchases.js";
import { answerKnownRequest } from "./known-request.js";
import { answerOf, type OrderAnswer, openOrder } from "./open-order.js";
import { createOpenings, type InitTxnEnd, type Openings } from "./openings.js";

/** The campaign's platform facts, for checking who the player is with the studio's own key. */
export interface PlayerCheck {
  appId: bigint;
  linkId: string;
  publisherKey: string;
}

export interface BeginRequest {
  campaignKey: string;
  offerId: string;
  /** As the caller sent it; checked here (spec 4.3: at most 128 characters). */
  requestId: string;
  /** ISO 639-1 or a platform language name; empty for English. */
  language: string;
  /** The caller's socket address (spec 8), never a header. */
  clientAddress: string;
  /**
   * Who buys, asked after every local refusal of a new begin: the game's ticket checked with
   * the platform, or the player the web page's Steam sign-in vouched for.
   */
  player(check: PlayerCheck): Promise<string>;
  /**
   * A web order (reference 3.1 "Web flow"): approved in a browser at the platform's `steamurl`
   * instead of the game's overlay, for the player at this IPv4 address. Absent for the game.
   */
  web?: { ipAddress: string };
}

export type BeginAnswer = OrderAnswer;

/** One begin: the request, what the store says of it, and the player the platform vouched for. */
interface Attempt {
  deps: ServiceDeps;
  openings: Openings;
  recordEnd: (end: InitTxnEndRecord) => Promise<void>;
  begun: BegunPurchases | undefined;
  request: BeginRequest;
  requestId: string | undefined;
  facts: BeginFacts;
  steamid: string;
  publisherKey: string;
}

/**
 * Spec 4.3, for the game's `purchases:begin` and the web page's purchase alike (one home for its
 * rules). Order of work (DESIGN 3): a known requestId is answered first, but it can only be
 * matched to a player once the player is known, so then the player is checked and the first
 * attempt's record answers. A new one: every local refusal, then the player, then the credit
 * reserved and the purchase written, then the platform order opened and how that ended recorded.
 */
export function createBeginPurchaseUseCase(deps: ServiceDeps, begun?: BegunPurchases) {
  // The InitTxn calls this replica is making, for a begin repeated meanwhile (openings.ts).
  const openings = createOpenings();
  // How InitTxn ended, recorded for concurrent begins in one statement (group-writes.ts).
  const recordEnd = groupWrites<InitTxnEndRecord>((ends) => recordInitTxnEnds(deps.db, ends));
  return async (request: BeginRequest): Promise<BeginAnswer> => {
    const requestId = readRequestId(request.requestId);
    const facts = await findBeginFacts(deps.db, request.campaignKey, request.offerId, requestId);
    if (!facts) throw notFound("No campaign has this key.");
    if (!facts.requestKnown) refuseLocally(deps, request.campaignKey, facts);
    const publisherKey = openSecret(deps.masterKeys, facts.link.publisherKeyEncrypted);
    const steamid = await request.player({ appId: facts.appId, linkId: facts.link.id, publisherKey });
    const attempt: Attempt = { deps, openings, recordEnd, begun, request, requestId, facts, steamid, publisherKey };
    return facts.requestKnown ? answerKnown(attempt, true) : openNew(attempt, true);
  };
}

function refuseLocally(deps: ServiceDeps, campaignKey: string, facts: BeginFacts): void {
  const reason = beginRefusal({
    campaignState: facts.state,
    ready: facts.ready,
    offer: facts.offer,
    linkState: facts.link.state,
    link: facts.link,
  });
  if (reason) throw deps.refuse(reason, { subject: campaignKey, message: refusalMessages[reason] });
}

const refusalMessages = {
  CAMPAIGN_NOT_VERIFIED: "The campaign is not verified.",
  CAMPAIGN_NOT_READY: "The campaign's game has not been transferred into its project yet.",
  OFFER_INACTIVE: "The offer is off sale or does not exist.",
  PUBLISHER_UNAVAILABLE: "The studio's platform key is not working.",
  PUBLISHER_LIMIT_REACHED: "The studio's outstanding limit would be exceeded.",
} as const;

/**
 * A known requestId's answer. Its first attempt abandoned (its order never reached the platform,
 * or a concurrent retry freed it): a fresh order is opened under it, once (`mayOpenAfresh`), after
 * the local refusals a new begin meets; a second time in one call means another caller keeps
 * racing for it: 503.
 */
async function answerKnown(attempt: Attempt, mayOpenAfresh: boolean): Promise<BeginAnswer> {
  const { deps, request, facts } = attempt;
  const known = await answerKnownRequest(deps, attempt.openings, {
    campaignKey: request.campaignKey,
    campaignId: facts.campaignId,
    requestId: attempt.requestId as string,
    playerId: attempt.steamid,
  });
  if (known !== "open-afresh") return known;
  if (!mayOpenAfresh) {
    throw unavailable("Another attempt with this requestId is in progress; retry with the same requestId.");
  }
  refuseLocally(deps, request.campaignKey, facts);
  return openNew(attempt, false);
}

/** Writes the purchase (the credit reserved, the requestId claimed), then opens its order. */
async function openNew(attempt: Attempt, mayOpenAfresh: boolean): Promise<BeginAnswer> {
  const { deps, request, requestId, facts } = attempt;
  const offer = facts.offer as NonNullable<BeginFacts["offer"]>;
  const purchaseId = randomUUID();
  const orderId = newOrderId();
  const language = toSteamLanguage(request.language === "" ? undefined : request.language);
  // Known before the purchase is written, so a repeat that finds the purchase finds this too.
  const ended = attempt.openings.start(purchaseId);
  let end: InitTxnEnd = { kind: "unanswered", cause: "the begin failed before InitTxn ended" };
  const createTime = deps.now();
  try {
    const opened = await openPurchase(deps.db, {
      purchaseId,
      campaignId: facts.campaignId,
      offerId: offer.id,
      linkId: facts.link.id,
      orderId,
      playerId: attempt.steamid,
      priceNanos: offer.priceNanos,
      creditNanos: offer.creditNanos,
      sandbox: facts.link.sandbox,
      language,
      requestId,
      channel: request.web ? "WEB" : "GAME",
      now: createTime,
    });
    if (opened === "request-known") return await answerKnown(attempt, mayOpenAfresh);
    // Deleted or taken off sale since the facts were read (spec 7: "off sale or does not exist").
    if (opened !== "opened") {
      const reason = opened === "offer-inactive" ? "OFFER_INACTIVE" : "PUBLISHER_LIMIT_REACHED";
      throw deps.refuse(reason, { subject: request.campaignKey, message: refusalMessages[reason] });
    }
    end = await openOrder(
      deps,
      {
        campaignKey: request.campaignKey,
        campaignId: facts.campaignId,
        requestId,
        purchaseId,
        orderId,
        appId: facts.appId,
        linkId: facts.link.id,
        publisherKey: attempt.publisherKey,
        sandbox: facts.link.sandbox,
        steamid: attempt.steamid,
        language,
        offer,
        clientAddress: request.clientAddress,
        ...(request.web && { web: request.web }),
      },
      attempt.recordEnd,
    );
    if (end.kind === "opened" && !request.web) {
      attempt.begun?.remember({
        id: purchaseId,
        campaignId: facts.campaignId,
        campaignKey: request.campaignKey,
        appId: facts.appId,
        linkId: facts.link.id,
        orderId,
        transId: end.transId,
        playerId: attempt.steamid,
        state: START_STATE,
        channel: "GAME",
        creditNanos: offer.creditNanos,
        sandbox: facts.link.sandbox,
        createTime,
        publisherKeyEncrypted: facts.link.publisherKeyEncrypted,
      });
    }
    return answerOf(deps, end, { campaignKey: request.campaignKey, purchaseId, orderId });
  } finally {
    ended(end);
  }
}
