import { type CampaignName, resources } from "../../domain/resource-names.js";
import { invalidArgument } from "../../errors/status.js";

// ListOperations' filter: empty, or `campaign = "accounts/{account}/campaigns/{campaign}"`
// (the transfers of one campaign). Anything else is INVALID_ARGUMENT.

const TERM = /^campaign\s*=\s*"([^"]*)"$/;

export function parseOperationsFilter(filter: string): CampaignName | undefined {
  const text = filter.trim();
  if (text === "") return undefined;
  const match = TERM.exec(text);
  const name = match ? resources.campaign.parse(match[1] as string) : { ok: false as const };
  if (!name.ok) throw invalidArgument(`"filter" accepts only campaign = "${resources.campaign.pattern}".`);
  return name.value;
}
