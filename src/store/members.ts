import type { Member } from "../../gen/prisma/client.js";
import type { Role } from "../domain/permissions.js";
import { deleteUnlessLastOwner, guardLastOwner, type OwnerGuarded } from "./account-owners.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";
import type { Db } from "./open-database.js";

// Members: users of an account by email, each with one role; sessions act as a member.

export type MemberRow = Member;

export function insertMember(db: DbClient, member: MemberRow): Promise<MemberRow> {
  return db.member.create({ data: member });
}

export function findMember(db: DbClient, accountId: string, id: string): Promise<MemberRow | null> {
  return db.member.findFirst({ where: { id, accountId } });
}

export function listMembers(db: DbClient, accountId: string, page: IdPage): Promise<MemberRow[]> {
  return db.member.findMany(idPageQuery({ accountId }, page));
}

/** Gives a member a new role, unless that demotes the account's last owner (account-owners.ts). */
export function updateMemberRole(
  db: Db,
  change: { accountId: string; id: string; role: Role },
): Promise<OwnerGuarded<MemberRow>> {
  const { accountId, id, role } = change;
  return guardLastOwner(db, {
    accountId,
    target: { memberId: id },
    losesOwner: (current) => current === "OWNER" && role !== "OWNER",
    write: (tx) => tx.member.update({ where: { id }, data: { role } }),
  });
}

/**
 * Removes a member unless they are the account's last owner (account-owners.ts); their
 * sessions go with them (ON DELETE CASCADE).
 */
export function deleteMember(db: Db, accountId: string, id: string): Promise<OwnerGuarded<void>> {
  return deleteUnlessLastOwner(db, accountId, { memberId: id });
}
