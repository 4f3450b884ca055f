// Resource names of the management API (spec 2.6) read strictly: a name that does not have
// exactly the pattern's shape is INVALID_ARGUMENT; one that has it but names nothing the
// caller may see is NOT_FOUND (spec 5.3). Parsing knows no storage.
//
// Each resource's pattern is written once, in `resources` below: its parser, its formatter and
// the text refusing a malformed name all come from that one string.

/** One id segment: what the service generates (UUIDs, offer ids) and nothing that needs escaping. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** A platform app id: a 32-bit unsigned decimal without leading zeros (Steam appids). */
const APP_ID = /^[1-9][0-9]{0,9}$/;
const MAX_APP_ID = 4_294_967_295n;

export type NameResult<T> = { ok: true; value: T } | { ok: false };

/** A resource's name pattern, as spec 2.6 writes it, with what reads and writes it. */
export interface ResourcePattern<T> {
  /** E.g. `accounts/{account}/campaigns/{campaign}`. */
  readonly pattern: string;
  parse(name: string): NameResult<T>;
  format(name: T): string;
  /** The text refusing a malformed name in `field`: `"parent" must be accounts/{account}.` */
  mustBe(field: string): string;
}

type Ids<K extends readonly string[]> = { [P in K[number]]: string };

/**
 * A pattern of literal collection words and `{...}` id slots; `keys` names the slots' ids in
 * order. The last slot may be checked by a rule of its own (app ids).
 */
function resource<const K extends readonly string[]>(
  pattern: string,
  keys: K,
  last: RegExp = SEGMENT,
): ResourcePattern<Ids<K>> {
  const words = pattern.split("/");
  const isSlot = (word: string) => word.startsWith("{");
  const parse = (name: string): NameResult<Ids<K>> => {
    const parts = name.split("/");
    if (parts.length !== words.length) return { ok: false };
    const ids: string[] = [];
    for (const [index, word] of words.entries()) {
      const part = parts[index] as string;
      const fits = !isSlot(word) ? part === word : (index === words.length - 1 ? last : SEGMENT).test(part);
      if (!fits) return { ok: false };
      if (isSlot(word)) ids.push(part);
    }
    return { ok: true, value: Object.fromEntries(keys.map((key, index) => [key, ids[index]])) as Ids<K> };
  };
  const format = (name: Ids<K>) => {
    let slot = 0;
    return words.map((word) => (isSlot(word) ? name[keys[slot++] as K[number]] : word)).join("/");
  };
  return { pattern, parse, format, mustBe: (field) => `"${field}" must be ${pattern}.` };
}

/** A listing's app id is a number (a Steam appid, at most 32 bits), carried as a bigint. */
function listing(pattern: string): ResourcePattern<ListingName> {
  const text = resource(pattern, ["accountId", "linkId", "appId"], APP_ID);
  return {
    ...text,
    parse(name) {
      const result = text.parse(name);
      if (!result.ok) return result;
      const appId = BigInt(result.value.appId);
      return appId > MAX_APP_ID ? { ok: false } : { ok: true, value: { ...result.value, appId } };
    },
    format: (name) => text.format({ ...name, appId: name.appId.toString() }),
  };
}

const ACCOUNT = "accounts/{account}";
const LINK = `${ACCOUNT}/distributorLinks/{distributor_link}`;
const CAMPAIGN = `${ACCOUNT}/campaigns/{campaign}`;
const PROJECT = `${ACCOUNT}/projects/{project}`;

/** Every resource name the service reads or writes: the one place its pattern is spelled. */
export const resources = {
  account: resource(ACCOUNT, ["accountId"]),
  apiKey: resource(`${ACCOUNT}/apiKeys/{api_key}`, ["accountId", "apiKeyId"]),
  member: resource(`${ACCOUNT}/members/{member}`, ["accountId", "memberId"]),
  link: resource(LINK, ["accountId", "linkId"]),
  listing: listing(`${LINK}/listings/{app_id}`),
  settlement: resource(`${LINK}/settlements/{settlement}`, ["accountId", "linkId", "settlementId"]),
  campaign: resource(CAMPAIGN, ["accountId", "campaignId"]),
  /** GetFunding and GetFundingHistory name the campaign's funding. */
  funding: resource(`${CAMPAIGN}/funding`, ["accountId", "campaignId"]),
  offer: resource(`${CAMPAIGN}/offers/{offer}`, ["accountId", "campaignId", "offerId"]),
  purchase: resource(`${CAMPAIGN}/purchases/{purchase}`, ["accountId", "campaignId", "purchaseId"]),
  game: resource(`${ACCOUNT}/games/{game}`, ["accountId", "gameId"]),
  project: resource(PROJECT, ["accountId", "projectId"]),
  resource: resource(`${PROJECT}/resources/{resource}`, ["accountId", "projectId", "resourceId"]),
  ledgerEntry: resource(`${PROJECT}/ledgerEntries/{ledger_entry}`, ["accountId", "projectId", "entryId"]),
  checkoutSession: resource(`${ACCOUNT}/checkoutSessions/{checkout_session}`, ["accountId", "sessionId"]),
  auditEvent: resource(`${ACCOUNT}/auditEvents/{audit_event}`, ["accountId", "eventId"]),
  webhookEndpoint: resource(`${ACCOUNT}/webhookEndpoints/{webhook_endpoint}`, ["accountId", "endpointId"]),
  webhookDelivery: resource(`${ACCOUNT}/webhookEndpoints/{webhook_endpoint}/deliveries/{delivery}`, [
    "accountId",
    "endpointId",
    "deliveryId",
  ]),
  /** An audit event of no account (service-wide operator calls, failed authentications). */
  serviceAuditEvent: resource("auditEvents/{audit_event}", ["eventId"]),
} as const;

interface ListingName extends Ids<["accountId", "linkId"]> {
  appId: bigint;
}
export type CampaignName = Ids<["accountId", "campaignId"]>;
export type OfferName = Ids<["accountId", "campaignId", "offerId"]>;
