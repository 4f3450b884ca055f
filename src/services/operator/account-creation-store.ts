import type { Db } from "../../store/open-database.js";
import type { AccountRow, ApiKeyRow } from "../account/account-mapper.js";

export interface NewAccount {
  account: AccountRow & { requestId: string | null };
  ownerKey: { id: string; displayName: string; keyHash: string; keyPrefix: string };
}

export interface CreatedAccount {
  account: AccountRow & { requestId: string | null };
  ownerKey: ApiKeyRow;
}

const accountColumns = { id: true, displayName: true, createTime: true, requestId: true } as const;
const keyColumns = {
  id: true,
  accountId: true,
  displayName: true,
  role: true,
  keyPrefix: true,
  createTime: true,
} as const;

/** The account and its first owner key, written together or not at all. */
export async function insertAccountWithOwnerKey(db: Db, input: NewAccount): Promise<CreatedAccount> {
  const { account, ownerKey } = input;
  return db.$transaction(async (tx) => {
    const row = await tx.account.create({ data: account, select: accountColumns });
    const key = await tx.apiKey.create({
      data: { ...ownerKey, accountId: account.id, role: "OWNER", createTime: account.createTime },
      select: keyColumns,
    });
    return { account: row, ownerKey: key };
  });
}

/** The account a request id created, or null. */
export function findAccountByRequestId(db: Db, requestId: string): Promise<NewAccount["account"] | null> {
  return db.account.findUnique({ where: { requestId }, select: accountColumns });
}

/** An account's key by the hash of its secret (null once deleted). */
export function findApiKeyByHash(db: Db, accountId: string, keyHash: string): Promise<ApiKeyRow | null> {
  return db.apiKey.findFirst({ where: { accountId, keyHash }, select: keyColumns });
}
