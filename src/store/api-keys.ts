import type { Role } from "../domain/permissions.js";
import { deleteUnlessLastOwner, type OwnerGuarded } from "./account-owners.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";
import type { Db } from "./open-database.js";

// API keys: only the SHA-256 of a secret is kept (the secret is shown once, at creation).

export interface ApiKeyRow {
  id: string;
  accountId: string;
  displayName: string;
  role: Role;
  keyPrefix: string;
  createTime: Date;
}

export const apiKeyColumns = {
  id: true,
  accountId: true,
  displayName: true,
  role: true,
  keyPrefix: true,
  createTime: true,
} as const;

export interface NewApiKey extends ApiKeyRow {
  keyHash: string;
}

export function insertApiKey(db: DbClient, key: NewApiKey): Promise<ApiKeyRow> {
  return db.apiKey.create({ data: key, select: apiKeyColumns });
}

export function listApiKeys(db: DbClient, accountId: string, page: IdPage): Promise<ApiKeyRow[]> {
  return db.apiKey.findMany({ ...idPageQuery({ accountId }, page), select: apiKeyColumns });
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
  return db.apiKey.findFirst({ where: { accountId, keyHash }, select: apiKeyColumns });
}

/**
 * Deletes a key unless it is the account's last owner (account-owners.ts). A deleted key stops
 * authenticating at once: its hash is gone.
 */
export function deleteApiKey(db: Db, accountId: string, id: string): Promise<OwnerGuarded<void>> {
  return deleteUnlessLastOwner(db, accountId, { apiKeyId: id });
}
