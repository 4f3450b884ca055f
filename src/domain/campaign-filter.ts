import type { CampaignState } from "./availability.js";

// ListCampaigns `filter` (spec 4.6): only `state = "<VALUE>"`, the value being a
// Campaign.State name as the API spells it (e.g. `state = "NEEDS_REVIEW"`).

/** API spelling of each stored state (Campaign.State value names, spec 3.2). */
export const CAMPAIGN_STATE_NAMES: Readonly<Record<string, CampaignState>> = {
  STATE_VERIFYING: "VERIFYING",
  NEEDS_REVIEW: "NEEDS_REVIEW",
  IN_REVIEW: "IN_REVIEW",
  DECLINED: "DECLINED",
  VERIFIED: "VERIFIED",
  REVOKED: "REVOKED",
};

export type CampaignFilter = { ok: true; state: CampaignState | undefined } | { ok: false };

const STATE_FILTER = /^\s*state\s*=\s*"([A-Z_]+)"\s*$/;

/** An empty filter selects every campaign; anything but `state = "<VALUE>"` is refused. */
export function parseCampaignFilter(filter: string): CampaignFilter {
  if (filter.trim() === "") return { ok: true, state: undefined };
  const match = STATE_FILTER.exec(filter);
  const state = match ? CAMPAIGN_STATE_NAMES[match[1] as string] : undefined;
  return state === undefined ? { ok: false } : { ok: true, state };
}
