import { randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type BeginPurchaseRequest,
  type BeginPurchaseResponse,
  BeginPurchaseResponseSchema,
} from "../../../../gen/encore/campaign/v1/public_pb.js";
import { beginRefusal } from "../../../domain/begin-refusal.js";
import { newOrderId } from "../../../domain/order-id.js";
import { readRequestId } from "../../../domain/request-id.js";
import { notFound, unavailable } from "../../../errors/status.js";
import { toSteamLanguage } from "../../../platform/steam/steam-language.js";
import { type BeginFacts, findBeginFacts, openPurchase } from "../../../store/purchase-opening.js";
import { kClientAddress, kTicketVerdict, type TicketVerdict } from "../../context-keys.js";
import type { ServiceDeps } from "../../deps.js";
import { openSecret } from "../../secret-box.js";
import { answerKnownRequest } from "./known-request.js";
import { openOrder } from "./open-order.js";
import { authenticatePlayer } from "./player-ticket.js";

// A known requestId may hand over to a fresh attempt once (its first order never reached the
// platform); a second hand-over in one call means another caller keeps racing: answer 503.
const MAX_ATTEMPTS = 2;

interface Attempt {
  request: BeginPurchaseRequest;
  requestId: string | undefined;
  clientAddress: string;
  /** Tells the rate limits what the platform said of the ticket (kTicketVerdict). */
  onVerdict: (verdict: TicketVerdict) => void;
}

/**
 * `POST /v1/public/purchases:begin` (spec 4.3). Order of work (DESIGN 3): a known requestId is
 * answered first, but it can only be matched to a player once the ticket is checked, so then
 * the ticket is checked and the record answers. A new one: every local refusal, then the ticket,
 * then the credit reserved and the purchase written, then the platform order opened.
 */
export function createBeginPurchase(deps: ServiceDeps) {
  return async (request: BeginPurchaseRequest, context: HandlerContext): Promise<BeginPurchaseResponse> => {
    const attempt: Attempt = {
      request,
      requestId: readRequestId(request.requestId),
      clientAddress: context.values.get(kClientAddress),
      onVerdict: (verdict) => context.values.set(kTicketVerdict, verdict),
    };
    for (let tries = 0; tries < MAX_ATTEMPTS; tries++) {
      const answer = await beginOnce(deps, attempt);
      if (answer) return create(BeginPurchaseResponseSchema, answer);
    }
    throw unavailable("Another attempt with this requestId is in progress; retry with the same requestId.");
  };
}

type Answer = { purchase: string; orderId: bigint };

/** One attempt; undefined when a known requestId was freed and the begin must start again. */
async function beginOnce(deps: ServiceDeps, attempt: Attempt): Promise<Answer | undefined> {
  const { request, requestId } = attempt;
  const facts = await findBeginFacts(deps.db, request.campaignKey, request.offerId, requestId);
  if (!facts) throw notFound("No campaign has this key.");
  let opened: string | undefined;
  const publisherKey = () => (opened ??= openSecret(deps.masterKeys, facts.link.publisherKeyEncrypted));
  const ticket = () =>
    authenticatePlayer(deps, {
      campaignKey: request.campaignKey,
      appId: facts.appId,
      linkId: facts.link.id,
      publisherKey: publisherKey(),
      ticket: request.authTicket,
      onVerdict: attempt.onVerdict,
    });
  if (facts.requestKnown) return answerKnown(deps, attempt, facts, await ticket());
  refuseLocally(deps, request.campaignKey, facts);
  const steamid = await ticket();
  return openNew(deps, attempt, facts, { steamid, publisherKey: publisherKey() });
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

async function answerKnown(deps: ServiceDeps, attempt: Attempt, facts: BeginFacts, steamid: string) {
  const known = await answerKnownRequest(deps, {
    campaignKey: attempt.request.campaignKey,
    campaignId: facts.campaignId,
    requestId: attempt.requestId as string,
    playerId: steamid,
  });
  return known.kind === "answer" ? { purchase: known.purchaseId, orderId: known.orderId } : undefined;
}

async function openNew(
  deps: ServiceDeps,
  attempt: Attempt,
  facts: BeginFacts,
  player: { steamid: string; publisherKey: string },
): Promise<Answer | undefined> {
  const { request, requestId } = attempt;
  const offer = facts.offer as NonNullable<BeginFacts["offer"]>;
  const purchaseId = randomUUID();
  const orderId = newOrderId();
  const language = toSteamLanguage(request.language === "" ? undefined : request.language);
  const opened = await openPurchase(deps.db, {
    purchaseId,
    campaignId: facts.campaignId,
    offerId: offer.id,
    linkId: facts.link.id,
    orderId,
    playerId: player.steamid,
    priceNanos: offer.priceNanos,
    creditNanos: offer.creditNanos,
    sandbox: facts.link.sandbox,
    language,
    requestId,
    now: deps.now(),
  });
  if (opened === "request-known") return answerKnown(deps, attempt, facts, player.steamid);
  // Deleted or taken off sale since the facts were read (spec 7: "off sale or does not exist").
  if (opened === "offer-inactive") {
    throw deps.refuse("OFFER_INACTIVE", { subject: request.campaignKey, message: refusalMessages.OFFER_INACTIVE });
  }
  if (opened === "limit-reached") {
    throw deps.refuse("PUBLISHER_LIMIT_REACHED", {
      subject: request.campaignKey,
      message: refusalMessages.PUBLISHER_LIMIT_REACHED,
    });
  }
  await openOrder(deps, {
    campaignKey: request.campaignKey,
    campaignId: facts.campaignId,
    requestId,
    purchaseId,
    orderId,
    appId: facts.appId,
    linkId: facts.link.id,
    publisherKey: player.publisherKey,
    sandbox: facts.link.sandbox,
    steamid: player.steamid,
    language,
    offer,
    clientAddress: attempt.clientAddress,
  });
  return { purchase: purchaseId, orderId };
}
