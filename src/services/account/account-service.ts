import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { createAccountMethods } from "./account-methods.js";
import { createApiKeyMethods } from "./api-key-methods.js";
import { createMemberMethods } from "./member-methods.js";

/**
 * encore.account.v1.AccountService: an account's own principals. Every method authorizes
 * against the permission table (`account.*`) and answers NOT_FOUND otherwise (spec 5.3), but
 * GetCaller, which any valid credential may ask about itself.
 */
export function createAccountService(deps: ServiceDeps): ServiceImpl<typeof AccountService> {
  return { ...createAccountMethods(deps), ...createApiKeyMethods(deps), ...createMemberMethods(deps) };
}
