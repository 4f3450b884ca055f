import type { ConnectError, HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../../core/deps.js";
import type { Permission } from "../../domain/permissions.js";
import type { ResourcePattern } from "../../domain/resource-names.js";
import type { OwnerGuarded } from "../../store/account-owners.js";
import { authorizeName, writtenOutcome } from "../management-access.js";

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

export interface OwnerGuardedDelete<Name> {
  permission: Permission;
  resource: ResourcePattern<Name>;
  /** Words the NOT_FOUND, the same for a missing permission and a missing key or member. */
  missing: (name: string) => string;
  remove(name: Name): Promise<OwnerGuarded<void>>;
}

/** A Delete method of a key or member: NOT_FOUND when it is gone, LAST_OWNER when it is the last owner. */
export function deleteOwnerGuarded<Name extends { accountId: string }>(
  deps: Pick<ServiceDeps, "refuse">,
  options: OwnerGuardedDelete<Name>,
) {
  return async (request: { name: string }, ctx: HandlerContext): Promise<Record<string, never>> => {
    const target = authorizeName(ctx, options.permission, options.resource, request.name, { missing: options.missing });
    writtenOutcome(await options.remove(target.name), target, () => refuseLastOwner(deps, target.text));
    return {};
  };
}
