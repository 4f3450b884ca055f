import type { Prisma } from "../../gen/prisma/client.js";
import type { Role } from "../domain/permissions.js";
import type { Db } from "./open-database.js";

// An account must never lose its last owner (our rule): only account.owner creates, deletes
// and re-roles keys and members (domain/permissions.ts), so an account without one could never
// be managed again. Its owners are its OWNER API keys and its OWNER members; a write that takes
// one away is refused when no other would remain.

type Tx = Prisma.TransactionClient;

/** The principal a guarded write takes away, not counted among the owners that remain. */
export type OwnerTarget = { apiKeyId: string } | { memberId: string };

export type OwnerGuarded<T> = { kind: "written"; value: T } | { kind: "absent" } | { kind: "lastOwner" };

export interface GuardedWrite<T> {
  accountId: string;
  target: OwnerTarget;
  /** Whether the write takes an owner away, given the target's current role. */
  losesOwner(role: Role): boolean;
  write(tx: Tx): Promise<T>;
}

/**
 * Runs `write` in one transaction holding the account's row lock, unless it would leave the
 * account without an owner. Every such write takes the lock first, so they run one at a time
 * per account: of two owners deleting each other's key at once, the second sees the first's
 * delete and is refused. `FOR NO KEY UPDATE` leaves rows that merely reference the account
 * (new keys, members, campaigns: `FOR KEY SHARE`) unblocked.
 */
export function guardLastOwner<T>(db: Db, guarded: GuardedWrite<T>): Promise<OwnerGuarded<T>> {
  return db.$transaction(async (tx): Promise<OwnerGuarded<T>> => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM accounts WHERE id = ${guarded.accountId} FOR NO KEY UPDATE`;
    if (locked.length === 0) return { kind: "absent" };
    const role = await targetRole(tx, guarded.accountId, guarded.target);
    if (role === undefined) return { kind: "absent" };
    if (guarded.losesOwner(role) && !(await keepsAnotherOwner(tx, guarded.accountId, guarded.target))) {
      return { kind: "lastOwner" };
    }
    return { kind: "written", value: await guarded.write(tx) };
  });
}

/** Deletes the target key or member unless it is the account's last owner. */
export function deleteUnlessLastOwner(db: Db, accountId: string, target: OwnerTarget): Promise<OwnerGuarded<void>> {
  return guardLastOwner(db, {
    accountId,
    target,
    losesOwner: (role) => role === "OWNER",
    write: async (tx) => {
      if ("apiKeyId" in target) await tx.apiKey.delete({ where: { id: target.apiKeyId } });
      else await tx.member.delete({ where: { id: target.memberId } });
    },
  });
}

async function targetRole(tx: Tx, accountId: string, target: OwnerTarget): Promise<Role | undefined> {
  const row =
    "apiKeyId" in target
      ? await tx.apiKey.findFirst({ where: { id: target.apiKeyId, accountId }, select: { role: true } })
      : await tx.member.findFirst({ where: { id: target.memberId, accountId }, select: { role: true } });
  return row?.role;
}

async function keepsAnotherOwner(tx: Tx, accountId: string, target: OwnerTarget): Promise<boolean> {
  const keys = await tx.apiKey.count({
    where: { accountId, role: "OWNER", ...("apiKeyId" in target ? { NOT: { id: target.apiKeyId } } : {}) },
  });
  if (keys > 0) return true;
  const members = await tx.member.count({
    where: { accountId, role: "OWNER", ...("memberId" in target ? { NOT: { id: target.memberId } } : {}) },
  });
  return members > 0;
}
