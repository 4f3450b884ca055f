import type { ConnectError } from "@connectrpc/connect";
import type { ServiceDeps } from "../../core/deps.js";
import { notFound } from "../../errors/status.js";
import type { OwnerGuarded } from "../../store/account-owners.js";
import type { Authorized } from "../management-access.js";

/**
 * LAST_OWNER: the write would leave the account with no owner key and no owner member, and
 * nobody could manage its keys and members again (store/account-owners.ts). `subject` is the
 * key or member the write was refused for.
 */
export function refuseLastOwner(deps: Pick<ServiceDeps, "refuse">, subject: string): ConnectError {
  return deps.refuse("LAST_OWNER", {
    subject,
    message: `${subject} is the account's last owner; add another owner API key or member first.`,
  });
}

/** What an owner-guarded write wrote: NOT_FOUND when the key or member is gone, LAST_OWNER when refused. */
export function ownerGuardedValue<T>(
  deps: Pick<ServiceDeps, "refuse">,
  outcome: OwnerGuarded<T>,
  target: Authorized<unknown>,
): T {
  if (outcome.kind === "absent") throw notFound(target.message);
  if (outcome.kind === "lastOwner") throw refuseLastOwner(deps, target.text);
  return outcome.value;
}
