import type { ApiKey } from "../../gen/prisma/client.js";
import { deleteUnlessLastOwner, type OwnerGuarded } from "./account-owners.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";
import type { Db } from "./open-database.js";

// API keys: only the SHA-256 of a secret is kept (the secret is shown once, at creation).

/** Every column but the hash of the secret. */
export const withoutKeyHash = { keyHash: true } as const;

export type ApiKeyRow = Omit<ApiKey, "keyHash">;

export function insertApiKey(db: DbClient, key: ApiKey): Promise<ApiKeyRow> {
  return db.apiKey.create({ data: key, omit: withoutKeyHash });
}

export function listApiKeys(db: DbClient, accountId: string, page: IdPage): Promise<ApiKeyRow[]> {
  return db.apiKey.findMany({ ...idPageQuery({ accountId }, page), omit: withoutKeyHash });
}

/** The key whose secret hashes to `keyHash`, in any account: who a bearer token is (authenticate.ts). */
export function findApiKeyByToken(
  db: DbClient,
  keyHash: string,
): Promise<{ id: string; accountId: string; role: ApiKeyRow["role"] } | null> {
  return db.apiKey.findUnique({ where: { keyHash }, select: { id: true, accountId: true, role: true } });
}

/** An account's key by the hash of its secret (null once deleted). */
export function findApiKeyByHash(db: DbClient, accountId: string, keyHash: string): Promise<ApiKeyRow | null> {
  return db.apiKey.findFirst({ where: { accountId, keyHash }, omit: withoutKeyHash });
}

/**
 * Deletes a key unless it is the account's last owner (account-owners.ts). A deleted key stops
 * authenticating at once: its hash is gone.
 */
export function deleteApiKey(db: Db, accountId: string, id: string): Promise<OwnerGuarded<void>> {
  return deleteUnlessLastOwner(db, accountId, { apiKeyId: id });
}
