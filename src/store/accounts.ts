import type { Account, ApiKey } from "../../gen/prisma/client.js";
import { type ApiKeyRow, withoutKeyHash } from "./api-keys.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";
import type { Db } from "./open-database.js";

// Accounts: created by the operator, each with its first owner API key.

const accountColumns = { id: true, displayName: true, createTime: true } as const;

export type AccountRow = Pick<Account, keyof typeof accountColumns>;
/** With CreateAccount's request_id, kept to answer its retries (null without one). */
export type CreatedAccountRow = AccountRow & Pick<Account, "requestId">;

export function findAccount(db: DbClient, id: string): Promise<AccountRow | null> {
  return db.account.findUnique({ where: { id }, select: accountColumns });
}

export function listAccounts(db: DbClient, page: IdPage): Promise<AccountRow[]> {
  return db.account.findMany({ ...idPageQuery({}, page), select: accountColumns });
}

/** The account a request id created, or null. */
export function findAccountByRequestId(db: DbClient, requestId: string): Promise<CreatedAccountRow | null> {
  return db.account.findUnique({ where: { requestId }, select: { ...accountColumns, requestId: true } });
}

export interface NewAccount {
  account: CreatedAccountRow;
  ownerKey: Pick<ApiKey, "id" | "displayName" | "keyHash" | "keyPrefix">;
}

export interface CreatedAccount {
  account: CreatedAccountRow;
  ownerKey: ApiKeyRow;
}

/** The account and its first owner key, written together or not at all. */
export function insertAccountWithOwnerKey(db: Db, input: NewAccount): Promise<CreatedAccount> {
  const { account, ownerKey } = input;
  return db.$transaction(async (tx) => {
    const row = await tx.account.create({ data: account, select: { ...accountColumns, requestId: true } });
    const key = await tx.apiKey.create({
      data: { ...ownerKey, accountId: account.id, role: "OWNER", createTime: account.createTime },
      omit: withoutKeyHash,
    });
    return { account: row, ownerKey: key };
  });
}
