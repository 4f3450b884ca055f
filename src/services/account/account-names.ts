import { invalidArgument } from "../../errors/status.js";

// Resource names of the account service (AIP-122). A malformed name is INVALID_ARGUMENT; a
// well-formed name the caller may not see is NOT_FOUND, decided by `authorize`.

const SEGMENT = "([A-Za-z0-9_-]{1,64})";
const accountPattern = new RegExp(`^accounts/${SEGMENT}$`);
const childPattern = (collection: string) => new RegExp(`^accounts/${SEGMENT}/${collection}/${SEGMENT}$`);
const apiKeyPattern = childPattern("apiKeys");
const memberPattern = childPattern("members");

export interface ChildName {
  accountId: string;
  id: string;
}

export const accountName = (accountId: string) => `accounts/${accountId}`;
export const apiKeyName = (accountId: string, id: string) => `accounts/${accountId}/apiKeys/${id}`;
export const memberName = (accountId: string, id: string) => `accounts/${accountId}/members/${id}`;

/** The account id of `accounts/{account}`. */
export function parseAccountName(name: string, field = "name"): string {
  const match = accountPattern.exec(name);
  if (!match?.[1]) throw invalidArgument(`"${field}" must be accounts/{account}.`);
  return match[1];
}

export function parseApiKeyName(name: string): ChildName {
  return parseChild(apiKeyPattern, name, "name", "accounts/{account}/apiKeys/{api_key}");
}

export function parseMemberName(name: string, field = "name"): ChildName {
  return parseChild(memberPattern, name, field, "accounts/{account}/members/{member}");
}

function parseChild(pattern: RegExp, name: string, field: string, shape: string): ChildName {
  const match = pattern.exec(name);
  if (!match?.[1] || !match[2]) throw invalidArgument(`"${field}" must be ${shape}.`);
  return { accountId: match[1], id: match[2] };
}
