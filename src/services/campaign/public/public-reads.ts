import type { PublicFunding } from "../../../../gen/encore/campaign/v1/public_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { shapePublicFunding } from "../../../domain/funding.js";
import { listActiveOffers } from "../../../store/public-campaigns.js";
import { type PublicCampaign, readPublicCampaign } from "../../../usecases/read-public-campaign.js";
import { freezeMessage } from "../../freeze-message.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { toPublicFunding, toPublicOffer } from "./public-mapper.js";
import { createRecentReads } from "./recent-reads.js";

/**
 * The two anonymous reads a game makes (spec 4.1, 4.2). They share a short-lived per-key
 * read of the campaign (`PUBLIC_READ_CACHE_MS`), forgotten as soon as a credit changes its
 * funding (deps.fundingChanges); begin and complete always read afresh.
 */
export function createPublicReads(deps: ServiceDeps): PublicReads {
  const readCampaign = createRecentReads({
    load: (campaignKey) => readPublicCampaign(deps, campaignKey),
    ttlMs: deps.config.publicReadCacheMs,
    now: deps.now,
    staleness: deps.fundingChanges,
  });
  // The read cache hands every caller of a campaign the same facts until they change, so those
  // callers share one answer, frozen, whose JSON the REST layer renders once.
  const answers = new WeakMap<PublicCampaign, PublicFunding>();
  return {
    /** `POST /v1/public/funding:get` (spec 4.1). */
    async getPublicFunding(request) {
      const campaign = await readCampaign(request.campaignKey);
      let answer = answers.get(campaign);
      if (answer === undefined) {
        answer = freezeMessage(toPublicFunding(shapePublicFunding(campaign)));
        answers.set(campaign, answer);
      }
      return answer;
    },

    /** `POST /v1/public/offers:list` (spec 4.2): active offers, even before verification. */
    async listPublicOffers(request) {
      const campaign = await readCampaign(request.campaignKey);
      const offers = await listActiveOffers(deps.db, campaign.campaignId);
      return {
        offers: offers.map(toPublicOffer),
        purchasable: campaign.unavailableReason === undefined,
        unavailableReason: campaign.unavailableReason ?? "",
      };
    },
  };
}

type PublicReads = Pick<CampaignImpl, "getPublicFunding" | "listPublicOffers">;
