import type { ServiceImpl } from "@connectrpc/connect";
import { Campaign_State } from "../../../gen/encore/campaign/v1/campaign_pb.js";
import type { OperatorService } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import type { CampaignState } from "../../domain/availability.js";
import { CAMPAIGN_STATE_NAMES, parseCampaignFilter } from "../../domain/campaign-filter.js";
import { resources } from "../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import { findCampaign, findCampaignState, listCampaigns, moveCampaign } from "../../store/campaigns.js";
import { toCampaign } from "../campaign/campaigns/campaign-mapper.js";
import { listPage } from "../list-page.js";
import { readName } from "../management-access.js";
import { requireOperator } from "../principal.js";
import { emitCampaignState } from "../webhooks/resource-events.js";
import { type Decision, defaultExplanations, isDecision, mayDecide } from "./review-decisions.js";

const MAX_EXPLANATION = 2000;

type ReviewMethods = Pick<ServiceImpl<typeof OperatorService>, "listReviews" | "decideCampaign">;

/** The operator's review of campaigns: the queue, and the decisions (review-decisions.ts). */
export function createReviewMethods(deps: ServiceDeps): ReviewMethods {
  return {
    /** Campaigns of every account in one state, oldest first: the operator's review queue. */
    async listReviews(request, ctx) {
      requireOperator(ctx);
      const state = readReviewFilter(request.filter);
      const page = await listPage(deps, request, {
        scope: `reviews:${state}`,
        load: (next) => listCampaigns(deps.db, { state, ...next }),
        cursorOf: (row) => row.pageCursor,
      });
      return {
        campaigns: page.items.map((row) => toCampaign(row, deps.config.publicUrl)),
        nextPageToken: page.nextPageToken,
      };
    },

    /**
     * Moves a campaign by the operator's decision; the explanation becomes the campaign's
     * verification explanation. The write is conditional on the state the decision was checked
     * against, so of two operators deciding at once one wins and the other is refused
     * REVIEW_NOT_ALLOWED.
     */
    async decideCampaign(request, ctx) {
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
    },
  };
}

/** ListReviews' filter: only `state = "<Campaign.State>"` (as ListCampaigns); empty means NEEDS_REVIEW. */
function readReviewFilter(filter: string): CampaignState {
  const parsed = parseCampaignFilter(filter);
  if (!parsed.ok) throw invalidArgument('"filter" must be state = "<STATE>", e.g. state = "NEEDS_REVIEW".');
  return parsed.state ?? "NEEDS_REVIEW";
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
