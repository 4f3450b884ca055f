// Resource names of the management API (spec 2.6) read strictly: a name that does not have
// exactly the pattern's shape is INVALID_ARGUMENT; one that has it but names nothing the
// caller may see is NOT_FOUND (spec 5.3). Parsing knows no storage.

/** One id segment: what the service generates (UUIDs, offer ids) and nothing that needs escaping. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** A platform app id: a 32-bit unsigned decimal without leading zeros (Steam appids). */
const APP_ID = /^[1-9][0-9]{0,9}$/;
const MAX_APP_ID = 4_294_967_295n;

export type NameResult<T> = { ok: true; value: T } | { ok: false };

export interface AccountName {
  accountId: string;
}
export interface ApiKeyName extends AccountName {
  apiKeyId: string;
}
export interface MemberName extends AccountName {
  memberId: string;
}
export interface LinkName extends AccountName {
  linkId: string;
}
export interface ListingName extends LinkName {
  appId: bigint;
}
export interface CampaignName extends AccountName {
  campaignId: string;
}
export interface OfferName extends CampaignName {
  offerId: string;
}
export interface PurchaseName extends CampaignName {
  purchaseId: string;
}
export interface GameName extends AccountName {
  gameId: string;
}

/**
 * Matches `name` against a pattern of literal collection words and `{}` id slots; returns the
 * ids in order. `last` checks the final slot differently (app ids).
 */
function match(name: string, pattern: readonly string[], last: RegExp = SEGMENT): string[] | undefined {
  const parts = name.split("/");
  if (parts.length !== pattern.length) return undefined;
  const ids: string[] = [];
  for (const [index, expected] of pattern.entries()) {
    const part = parts[index] as string;
    if (expected !== "{}") {
      if (part !== expected) return undefined;
      continue;
    }
    const rule = index === pattern.length - 1 ? last : SEGMENT;
    if (!rule.test(part)) return undefined;
    ids.push(part);
  }
  return ids;
}

function result<T>(value: T | undefined): NameResult<T> {
  return value === undefined ? { ok: false } : { ok: true, value };
}

export function parseAccountName(name: string): NameResult<AccountName> {
  const ids = match(name, ["accounts", "{}"]);
  return result(ids && { accountId: ids[0] as string });
}

export function parseApiKeyName(name: string): NameResult<ApiKeyName> {
  const ids = match(name, ["accounts", "{}", "apiKeys", "{}"]);
  return result(ids && { accountId: ids[0] as string, apiKeyId: ids[1] as string });
}

export function parseMemberName(name: string): NameResult<MemberName> {
  const ids = match(name, ["accounts", "{}", "members", "{}"]);
  return result(ids && { accountId: ids[0] as string, memberId: ids[1] as string });
}

export function parseLinkName(name: string): NameResult<LinkName> {
  const ids = match(name, ["accounts", "{}", "distributorLinks", "{}"]);
  return result(ids && { accountId: ids[0] as string, linkId: ids[1] as string });
}

export function parseListingName(name: string): NameResult<ListingName> {
  const ids = match(name, ["accounts", "{}", "distributorLinks", "{}", "listings", "{}"], APP_ID);
  if (!ids) return { ok: false };
  const appId = BigInt(ids[2] as string);
  if (appId > MAX_APP_ID) return { ok: false };
  return { ok: true, value: { accountId: ids[0] as string, linkId: ids[1] as string, appId } };
}

export function parseCampaignName(name: string): NameResult<CampaignName> {
  const ids = match(name, ["accounts", "{}", "campaigns", "{}"]);
  return result(ids && { accountId: ids[0] as string, campaignId: ids[1] as string });
}

/** `accounts/{account}/campaigns/{campaign}/funding` (GetFunding). */
export function parseFundingName(name: string): NameResult<CampaignName> {
  if (!name.endsWith("/funding")) return { ok: false };
  return parseCampaignName(name.slice(0, -"/funding".length));
}

export function parseOfferName(name: string): NameResult<OfferName> {
  const ids = match(name, ["accounts", "{}", "campaigns", "{}", "offers", "{}"]);
  return result(ids && { accountId: ids[0] as string, campaignId: ids[1] as string, offerId: ids[2] as string });
}

export function parsePurchaseName(name: string): NameResult<PurchaseName> {
  const ids = match(name, ["accounts", "{}", "campaigns", "{}", "purchases", "{}"]);
  return result(ids && { accountId: ids[0] as string, campaignId: ids[1] as string, purchaseId: ids[2] as string });
}

export function parseGameName(name: string): NameResult<GameName> {
  const ids = match(name, ["accounts", "{}", "games", "{}"]);
  return result(ids && { accountId: ids[0] as string, gameId: ids[1] as string });
}

export const names = {
  account: (accountId: string) => `accounts/${accountId}`,
  apiKey: (n: ApiKeyName) => `accounts/${n.accountId}/apiKeys/${n.apiKeyId}`,
  member: (n: MemberName) => `accounts/${n.accountId}/members/${n.memberId}`,
  link: (n: LinkName) => `accounts/${n.accountId}/distributorLinks/${n.linkId}`,
  listing: (n: ListingName) => `accounts/${n.accountId}/distributorLinks/${n.linkId}/listings/${n.appId}`,
  settlement: (n: LinkName, settlementId: string) =>
    `accounts/${n.accountId}/distributorLinks/${n.linkId}/settlements/${settlementId}`,
  campaign: (n: CampaignName) => `accounts/${n.accountId}/campaigns/${n.campaignId}`,
  funding: (n: CampaignName) => `accounts/${n.accountId}/campaigns/${n.campaignId}/funding`,
  offer: (n: OfferName) => `accounts/${n.accountId}/campaigns/${n.campaignId}/offers/${n.offerId}`,
  purchase: (n: PurchaseName) => `accounts/${n.accountId}/campaigns/${n.campaignId}/purchases/${n.purchaseId}`,
  game: (n: GameName) => `accounts/${n.accountId}/games/${n.gameId}`,
  project: (accountId: string, projectId: string) => `accounts/${accountId}/projects/${projectId}`,
  resource: (accountId: string, projectId: string, resourceId: string) =>
    `accounts/${accountId}/projects/${projectId}/resources/${resourceId}`,
} as const;
