import type { ConnectError } from "@connectrpc/connect";
import type { ServiceDeps } from "../../core/deps.js";

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
