import type { Reason } from "../errors/reasons.js";

export type CampaignState = "VERIFYING" | "NEEDS_REVIEW" | "IN_REVIEW" | "DECLINED" | "VERIFIED" | "REVOKED";
export type LinkState = "ACTIVE" | "CREDENTIAL_INVALID";

export type UnavailableReason = Extract<
  Reason,
  "CAMPAIGN_NOT_VERIFIED" | "CAMPAIGN_NOT_READY" | "PUBLISHER_UNAVAILABLE" | "PUBLISHER_LIMIT_REACHED"
>;

export interface LinkExposure {
  sandbox: boolean;
  outstandingNanos: bigint;
  reservedNanos: bigint;
  outstandingLimitNanos: bigint;
}

/**
 * Whether issuing `creditNanos` more would exceed the link's outstanding limit (spec 8):
 * outstanding + reserved + credit > limit. Exactly at the limit is allowed; sandbox links
 * have no limit. An outstanding below zero (credit Steam took back after the studio settled it,
 * docs/settlement.md) counts as zero: what the studio paid ahead is settled with the operator, never
 * extra room, so a limit of zero still stops every sale.
 */
export function exceedsOutstandingLimit(link: LinkExposure, creditNanos: bigint): boolean {
  if (link.sandbox) return false;
  const owed = link.outstandingNanos > 0n ? link.outstandingNanos : 0n;
  return owed + link.reservedNanos + creditNanos > link.outstandingLimitNanos;
}

export interface AvailabilityFacts {
  campaignState: CampaignState;
  /** The game has been transferred into the campaign's project. */
  ready: boolean;
  linkState: LinkState;
  link: LinkExposure;
  /** The smallest credit among active offers; undefined when none is on sale. */
  cheapestCreditNanos: bigint | undefined;
}

/**
 * Why a player cannot buy right now, or undefined when they can. When several apply, the
 * order is NOT_VERIFIED, NOT_READY, PUBLISHER_UNAVAILABLE, PUBLISHER_LIMIT_REACHED (DESIGN 3).
 */
export function unavailableReason(facts: AvailabilityFacts): UnavailableReason | undefined {
  if (facts.campaignState !== "VERIFIED") return "CAMPAIGN_NOT_VERIFIED";
  if (!facts.ready) return "CAMPAIGN_NOT_READY";
  if (facts.linkState !== "ACTIVE") return "PUBLISHER_UNAVAILABLE";
  // With nothing on sale, the limit is reached once nothing more at all fits under it.
  const smallest = facts.cheapestCreditNanos ?? 1n;
  if (exceedsOutstandingLimit(facts.link, smallest)) return "PUBLISHER_LIMIT_REACHED";
  return undefined;
}
