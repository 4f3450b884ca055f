import { type CampaignName, type LinkName, parseCampaignName, parseLinkName } from "../../domain/resource-names.js";
import { invalidArgument } from "../../errors/status.js";

// The campaign-side names the operator acts on, read with the management API's parser
// (domain/resource-names.ts); a malformed one is INVALID_ARGUMENT.

export function readCampaignName(name: string, field = "name"): CampaignName {
  const parsed = parseCampaignName(name);
  if (!parsed.ok) throw invalidArgument(`"${field}" must be accounts/{account}/campaigns/{campaign}.`);
  return parsed.value;
}

export function readLinkName(name: string, field: string): LinkName {
  const parsed = parseLinkName(name);
  if (!parsed.ok) throw invalidArgument(`"${field}" must be accounts/{account}/distributorLinks/{distributor_link}.`);
  return parsed.value;
}
