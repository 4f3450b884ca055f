import type { CampaignState } from "../../domain/availability.js";

// How the operator moves a campaign (spec 3.2 leaves review "not shown"; these are ours):
//   NEEDS_REVIEW -> IN_REVIEW            the operator has picked it up
//   NEEDS_REVIEW | IN_REVIEW -> VERIFIED the operator confirms the game is ending
//   NEEDS_REVIEW | IN_REVIEW -> DECLINED the operator does not
//   VERIFIED -> REVOKED                  takes back an earlier verification
// Anything else is refused REVIEW_NOT_ALLOWED. DECLINED goes back to review only through the
// developer's RetryVerification (spec 3.2); REVOKED is final.

export type Decision = Extract<CampaignState, "IN_REVIEW" | "VERIFIED" | "DECLINED" | "REVOKED">;

export const decisionsFrom: Readonly<Record<Decision, readonly CampaignState[]>> = {
  IN_REVIEW: ["NEEDS_REVIEW"],
  VERIFIED: ["NEEDS_REVIEW", "IN_REVIEW"],
  DECLINED: ["NEEDS_REVIEW", "IN_REVIEW"],
  REVOKED: ["VERIFIED"],
};

export function isDecision(state: CampaignState): state is Decision {
  return Object.hasOwn(decisionsFrom, state);
}

/** Whether the operator may move a campaign in `from` to `to`. */
export function mayDecide(from: CampaignState, to: Decision): boolean {
  return decisionsFrom[to].includes(from);
}

/** Shown in the campaign's verification explanation when the operator gave none. */
export const defaultExplanations: Readonly<Record<Decision, string>> = {
  IN_REVIEW: "The operator is reviewing the campaign.",
  VERIFIED: "The operator verified that the game is ending.",
  DECLINED: "The operator could not confirm that the game is ending.",
  REVOKED: "The operator revoked the verification.",
};
