import type { HandlerContext } from "@connectrpc/connect";
import type { Account, GetAccountRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { findAccount } from "../../store/accounts.js";
import { readName } from "../management-access.js";
import { authorize } from "../principal.js";
import { toAccount } from "./account-mapper.js";

/** The same words whether the account does not exist or the caller may not see it (spec 5.3). */
export const accountNotFound = (name: string) => `Account "${name}" not found.`;

export function createGetAccount(deps: ServiceDeps) {
  return async (request: GetAccountRequest, ctx: HandlerContext): Promise<Account> => {
    const { accountId } = readName(resources.account, request.name, "name");
    authorize(ctx, "account.accounts.get", accountId, accountNotFound(request.name));
    const row = await findAccount(deps.db, accountId);
    if (!row) throw notFound(accountNotFound(request.name));
    return toAccount(row);
  };
}
