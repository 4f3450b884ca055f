import type { ServiceDeps } from "../../../core/deps.js";
import { readPublicCampaign } from "../../../usecases/read-public-campaign.js";
import { createGetPublicFunding } from "./get-public-funding.js";
import { createListPublicOffers } from "./list-public-offers.js";
import { createRecentReads } from "./recent-reads.js";

/**
 * The two anonymous reads a game makes (spec 4.1, 4.2). They share a short-lived per-key
 * read of the campaign (`PUBLIC_READ_CACHE_MS`), forgotten as soon as a credit changes its
 * funding (deps.fundingChanges); begin and complete always read afresh.
 */
export function createPublicReads(deps: ServiceDeps) {
  const readCampaign = createRecentReads({
    load: (campaignKey) => readPublicCampaign(deps, campaignKey),
    ttlMs: deps.config.publicReadCacheMs,
    now: deps.now,
    staleness: deps.fundingChanges,
  });
  return {
    getPublicFunding: createGetPublicFunding(readCampaign),
    listPublicOffers: createListPublicOffers(deps, readCampaign),
  };
}
