import type { Role } from "../../domain/permissions.js";
import type { Db } from "../../store/open-database.js";
import type { AccountRow, ApiKeyRow, MemberRow } from "./account-mapper.js";

// Queries of the account service: accounts, API keys and members. Lists page by id, which
// sorts in creation order (new-id.ts); `after` is the last id of the previous page.

const apiKeyColumns = {
  id: true,
  accountId: true,
  displayName: true,
  role: true,
  keyPrefix: true,
  createTime: true,
} as const;
const memberColumns = { id: true, accountId: true, email: true, role: true, createTime: true } as const;

export interface ListOptions {
  take: number;
  after: string | undefined;
}

const afterId = (after: string | undefined) => (after === undefined ? {} : { id: { gt: after } });

export function findAccount(db: Db, id: string): Promise<AccountRow | null> {
  return db.account.findUnique({ where: { id }, select: { id: true, displayName: true, createTime: true } });
}

export function listAccounts(db: Db, { take, after }: ListOptions): Promise<AccountRow[]> {
  return db.account.findMany({
    where: afterId(after),
    select: { id: true, displayName: true, createTime: true },
    orderBy: { id: "asc" },
    take,
  });
}

export interface NewApiKey {
  id: string;
  accountId: string;
  displayName: string;
  role: Role;
  keyHash: string;
  keyPrefix: string;
  createTime: Date;
}

export function insertApiKey(db: Db, key: NewApiKey): Promise<ApiKeyRow> {
  return db.apiKey.create({ data: key, select: apiKeyColumns });
}

export function listApiKeys(db: Db, accountId: string, { take, after }: ListOptions): Promise<ApiKeyRow[]> {
  return db.apiKey.findMany({
    where: { accountId, ...afterId(after) },
    select: apiKeyColumns,
    orderBy: { id: "asc" },
    take,
  });
}

/** Whether a key was deleted; it stops authenticating at once (the hash is gone). */
export async function deleteApiKey(db: Db, accountId: string, id: string): Promise<boolean> {
  const { count } = await db.apiKey.deleteMany({ where: { id, accountId } });
  return count > 0;
}

export function insertMember(db: Db, member: MemberRow): Promise<MemberRow> {
  return db.member.create({ data: member, select: memberColumns });
}

export function findMember(db: Db, accountId: string, id: string): Promise<MemberRow | null> {
  return db.member.findFirst({ where: { id, accountId }, select: memberColumns });
}

export function listMembers(db: Db, accountId: string, { take, after }: ListOptions): Promise<MemberRow[]> {
  return db.member.findMany({
    where: { accountId, ...afterId(after) },
    select: memberColumns,
    orderBy: { id: "asc" },
    take,
  });
}

/** The member with its new role, or null when the account has no such member. */
export async function updateMemberRole(db: Db, accountId: string, id: string, role: Role): Promise<MemberRow | null> {
  const { count } = await db.member.updateMany({ where: { id, accountId }, data: { role } });
  return count === 0 ? null : findMember(db, accountId, id);
}

/** Whether a member was removed; their sessions go with them (ON DELETE CASCADE). */
export async function deleteMember(db: Db, accountId: string, id: string): Promise<boolean> {
  const { count } = await db.member.deleteMany({ where: { id, accountId } });
  return count > 0;
}

export interface NewSession {
  id: string;
  memberId: string;
  tokenHash: string;
  expireTime: Date;
  createTime: Date;
}

/** A member's session; only the token's hash is kept. */
export async function insertSession(db: Db, session: NewSession): Promise<void> {
  await db.session.create({ data: session });
}
