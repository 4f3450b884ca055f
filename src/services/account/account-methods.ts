import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { type Permission, permissionTable, roleHolds } from "../../domain/permissions.js";
import { resources } from "../../domain/resource-names.js";
import { unauthenticated } from "../../errors/status.js";
import { findAccount } from "../../store/accounts.js";
import { authorizeName, loadAuthorized } from "../management-access.js";
import { requirePrincipal } from "../principal.js";
import { toAccount, toProtoRole } from "./account-mapper.js";

/** The same words whether the account does not exist or the caller may not see it (spec 5.3). */
export const accountNotFound = (name: string) => `Account "${name}" not found.`;

const PERMISSIONS = (Object.keys(permissionTable) as Permission[]).sort();

/** The account itself, and the caller as the account knows it. */
export function createAccountMethods(deps: ServiceDeps): AccountMethods {
  return {
    /**
     * GetCaller: the caller's own account, role and the permissions that role holds, so a console
     * can name the account and leave out what the role may not do. It says nothing about any other
     * resource, so spec 5.3 (NOT_FOUND for what the caller may not see) is untouched. The operator
     * token is no account's caller (the authenticate interceptor refuses it here already).
     */
    async getCaller(_request, ctx) {
      const principal = requirePrincipal(ctx);
      if (principal.kind === "operator") throw unauthenticated();
      const { accountId, role } = principal;
      return {
        account: resources.account.format({ accountId: accountId }),
        role: toProtoRole(role),
        permissions: PERMISSIONS.filter((permission) => roleHolds(role, permission)),
        apiKey: principal.kind === "apiKey" ? resources.apiKey.format({ accountId, apiKeyId: principal.id }) : "",
        member:
          principal.kind === "session" ? resources.member.format({ accountId, memberId: principal.memberId }) : "",
      };
    },

    async getAccount(request, ctx) {
      const account = authorizeName(ctx, "account.accounts.get", resources.account, request.name, {
        missing: accountNotFound,
      });
      return toAccount(await loadAuthorized(account, (n) => findAccount(deps.db, n.accountId)));
    },
  };
}

type AccountMethods = Pick<ServiceImpl<typeof AccountService>, "getCaller" | "getAccount">;
