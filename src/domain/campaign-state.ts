import type { CampaignState } from "./availability.js";

// Campaign states and the moves of spec 3.2 that the studio's side makes: create starts in
// VERIFYING, verification has exactly two outcomes, RetryVerification starts it again.

/** Spec 3.2: RetryVerification only from NEEDS_REVIEW or DECLINED, else NOT_RETRYABLE. */
export const RETRYABLE_STATES: readonly CampaignState[] = ["NEEDS_REVIEW", "DECLINED"];

export function canRetryVerification(state: CampaignState): boolean {
  return RETRYABLE_STATES.includes(state);
}

export interface VerificationFacts {
  /** The linked publisher key owns the app. */
  keyOwnsApp: boolean;
  /** The store no longer sells the app. */
  removedFromSale: boolean;
  /** Title of the studio's announcement that the game is ending; empty when none. */
  endingAnnouncement: string;
}

export interface VerificationOutcome {
  state: Extract<CampaignState, "VERIFIED" | "NEEDS_REVIEW">;
  explanation: string;
}

/**
 * Spec 3.2: VERIFIED when the key owns the app AND (the store no longer sells it OR the
 * studio's own announcement says it is ending); NEEDS_REVIEW otherwise. Exactly two outcomes.
 */
export function decideVerification(facts: VerificationFacts): VerificationOutcome {
  if (!facts.keyOwnsApp) {
    return { state: "NEEDS_REVIEW", explanation: "The linked publisher key does not own the app." };
  }
  if (facts.removedFromSale) {
    return { state: "VERIFIED", explanation: "The key owns the app and the store no longer sells it." };
  }
  if (facts.endingAnnouncement !== "") {
    return {
      state: "VERIFIED",
      explanation: `The key owns the app and the studio announced its end: "${facts.endingAnnouncement}".`,
    };
  }
  return {
    state: "NEEDS_REVIEW",
    explanation: "The store still sells the app and no studio announcement says it is ending; the operator reviews it.",
  };
}
