import { type AvailabilityFacts, exceedsOutstandingLimit, type UnavailableReason } from "./availability.js";

// Every local refusal of begin, decided before any platform call (spec 4.3 rules 1 and 2), in
// one order: NOT_VERIFIED, NOT_READY, OFFER_INACTIVE, PUBLISHER_UNAVAILABLE, then the limit.

export type BeginRefusal = UnavailableReason | "OFFER_INACTIVE";

export interface BeginRefusalFacts extends Omit<AvailabilityFacts, "cheapestCreditNanos"> {
  /** Undefined when the campaign has no such offer (spec 7: "off sale or does not exist"). */
  offer: { active: boolean; creditNanos: bigint } | undefined;
}

export function beginRefusal(facts: BeginRefusalFacts): BeginRefusal | undefined {
  if (facts.campaignState !== "VERIFIED") return "CAMPAIGN_NOT_VERIFIED";
  if (!facts.ready) return "CAMPAIGN_NOT_READY";
  if (!facts.offer?.active) return "OFFER_INACTIVE";
  if (facts.linkState !== "ACTIVE") return "PUBLISHER_UNAVAILABLE";
  if (exceedsOutstandingLimit(facts.link, facts.offer.creditNanos)) return "PUBLISHER_LIMIT_REACHED";
  return undefined;
}
