import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { type Caller, CallerSchema, type GetCallerRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import { type Permission, permissionTable, roleHolds } from "../../domain/permissions.js";
import { resources } from "../../domain/resource-names.js";
import { unauthenticated } from "../../errors/status.js";
import { requirePrincipal } from "../principal.js";
import { toProtoRole } from "./account-mapper.js";

const PERMISSIONS = (Object.keys(permissionTable) as Permission[]).sort();

/**
 * GetCaller: the caller's own account, role and the permissions that role holds, so a console
 * can name the account and leave out what the role may not do. It says nothing about any other
 * resource, so spec 5.3 (NOT_FOUND for what the caller may not see) is untouched. The operator
 * token is no account's caller (the authenticate interceptor refuses it here already).
 */
export function createGetCaller() {
  return async (_request: GetCallerRequest, ctx: HandlerContext): Promise<Caller> => {
    const principal = requirePrincipal(ctx);
    if (principal.kind === "operator") throw unauthenticated();
    const { accountId, role } = principal;
    return create(CallerSchema, {
      account: resources.account.format({ accountId: accountId }),
      role: toProtoRole(role),
      permissions: PERMISSIONS.filter((permission) => roleHolds(role, permission)),
      apiKey: principal.kind === "apiKey" ? resources.apiKey.format({ accountId, apiKeyId: principal.id }) : "",
      member: principal.kind === "session" ? resources.member.format({ accountId, memberId: principal.memberId }) : "",
    });
  };
}
