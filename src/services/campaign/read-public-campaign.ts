import { unavailableReason } from "../../domain/availability.js";
import { notFound, unavailable } from "../../errors/status.js";
import { findPublicCampaign, type PublicCampaignFacts } from "../../store/public-campaigns.js";
import type { ServiceDeps } from "../deps.js";

export interface PublicCampaign extends PublicCampaignFacts {
  unavailableReason: ReturnType<typeof unavailableReason>;
}

/**
 * Finds the campaign a public call names, with why it cannot be bought from. A store that
 * cannot be read fails the call (503): funding is never guessed as zero (spec 4.1).
 */
export async function readPublicCampaign(deps: ServiceDeps, campaignKey: string): Promise<PublicCampaign> {
  let facts: PublicCampaignFacts | undefined;
  try {
    facts = await findPublicCampaign(deps.db, campaignKey, deps.now());
  } catch (cause) {
    throw Object.assign(unavailable("Campaign funding cannot be read right now; retry with backoff."), { cause });
  }
  if (!facts) throw notFound("No campaign has this key.");
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
