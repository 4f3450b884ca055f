import type { ServiceDeps } from "../../../core/deps.js";
import { unavailableReason } from "../../../domain/availability.js";
import { spendWindow } from "../../../domain/funding.js";
import { notFound } from "../../../errors/status.js";
import { findPublicCampaign, type PublicCampaignFacts } from "../../../store/public-campaigns.js";

export interface PublicCampaign extends PublicCampaignFacts {
  unavailableReason: ReturnType<typeof unavailableReason>;
}

/**
 * Finds the campaign a public call names, with why it cannot be bought from. A store that
 * cannot be read fails the call (503, by the request log interceptor for every call): funding
 * is never guessed as zero (spec 4.1).
 */
export async function readPublicCampaign(deps: ServiceDeps, campaignKey: string): Promise<PublicCampaign> {
  const facts = await findPublicCampaign(deps.db, campaignKey, spendWindow(deps.now()));
  if (!facts) throw notFound("No campaign has this key.");
  return publicCampaignOf(facts);
}

/** A campaign's public facts with why it cannot be bought from, however they were read. */
export function publicCampaignOf(facts: PublicCampaignFacts): PublicCampaign {
  return {
    ...facts,
    unavailableReason: unavailableReason({
      campaignState: facts.state,
      ready: facts.ready,
      linkState: facts.linkState,
      link: facts,
      cheapestCreditNanos: facts.cheapestCreditNanos,
    }),
  };
}
