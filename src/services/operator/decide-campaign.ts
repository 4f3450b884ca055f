import type { HandlerContext } from "@connectrpc/connect";
import { type Campaign, Campaign_State } from "../../../gen/encore/campaign/v1/campaign_pb.js";
import type { DecideCampaignRequest } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import type { CampaignState } from "../../domain/availability.js";
import { CAMPAIGN_STATE_NAMES } from "../../domain/campaign-filter.js";
import { resources } from "../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import { findCampaign } from "../../store/campaigns.js";
import { findCampaignState, moveCampaign } from "../../store/reviews.js";
import { toCampaign } from "../campaign/campaigns/campaign-mapper.js";
import { readName } from "../management-access.js";
import { requireOperator } from "../principal.js";
import { emitCampaignState } from "../webhooks/resource-events.js";
import { type Decision, defaultExplanations, isDecision, mayDecide } from "./review-decisions.js";

const MAX_EXPLANATION = 2000;

/**
 * Moves a campaign by the operator's decision (review-decisions.ts); the explanation becomes
 * the campaign's verification explanation. The write is conditional on the state the decision
 * was checked against, so of two operators deciding at once one wins and the other is refused
 * REVIEW_NOT_ALLOWED.
 */
export function createDecideCampaign(deps: ServiceDeps) {
  return async (request: DecideCampaignRequest, ctx: HandlerContext): Promise<Campaign> => {
    requireOperator(ctx);
    const { accountId, campaignId } = readName(resources.campaign, request.name, "name");
    const to = readDecision(request.state);
    if (request.explanation.length > MAX_EXPLANATION) {
      throw invalidArgument(`"explanation" must be at most ${MAX_EXPLANATION} characters.`);
    }
    const missing = () => notFound(`Campaign "${request.name}" not found.`);
    const from = await findCampaignState(deps.db, accountId, campaignId);
    if (!from) throw missing();
    if (!mayDecide(from, to)) throw refuseDecision(deps, request.name, from, to);
    const explanation = request.explanation.trim() || defaultExplanations[to];
    const now = deps.now();
    // The decision and its webhook event (campaign.verified, .declined, .revoked) commit together.
    const moved = await deps.db.$transaction(async (tx) => {
      const done = await moveCampaign(tx, { accountId, id: campaignId, from, to, explanation, now });
      if (done) await emitCampaignState(tx, { campaignId, now, publicUrl: deps.config.publicUrl });
      return done;
    });
    const row = await findCampaign(deps.db, accountId, campaignId);
    if (!row) throw missing();
    if (!moved) throw refuseDecision(deps, request.name, row.state, to);
    return toCampaign(row, deps.config.publicUrl);
  };
}

function readDecision(state: Campaign_State): Decision {
  const name = Campaign_State[state] as string | undefined;
  const domain = name === undefined ? undefined : CAMPAIGN_STATE_NAMES[name];
  if (!domain || !isDecision(domain))
    throw invalidArgument('"state" must be IN_REVIEW, VERIFIED, DECLINED or REVOKED.');
  return domain;
}

function refuseDecision(deps: ServiceDeps, name: string, from: CampaignState, to: Decision) {
  return deps.refuse("REVIEW_NOT_ALLOWED", {
    subject: name,
    message: `A campaign in ${from} cannot be moved to ${to}.`,
    metadata: { state: from, decision: to },
  });
}
