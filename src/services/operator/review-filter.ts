import type { CampaignState } from "../../domain/availability.js";
import { parseCampaignFilter } from "../../domain/campaign-filter.js";
import { invalidArgument } from "../../errors/status.js";

/** ListReviews' filter: only `state = "<Campaign.State>"` (as ListCampaigns); empty means NEEDS_REVIEW. */
export function readReviewFilter(filter: string): CampaignState {
  const parsed = parseCampaignFilter(filter);
  if (!parsed.ok) throw invalidArgument('"filter" must be state = "<STATE>", e.g. state = "NEEDS_REVIEW".');
  return parsed.state ?? "NEEDS_REVIEW";
}
