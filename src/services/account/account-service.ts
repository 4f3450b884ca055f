import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { createCreateApiKey } from "./create-api-key.js";
import { createCreateMember } from "./create-member.js";
import { createDeleteApiKey } from "./delete-api-key.js";
import { createDeleteMember } from "./delete-member.js";
import { createGetAccount } from "./get-account.js";
import { createGetCaller } from "./get-caller.js";
import { createListApiKeys } from "./list-api-keys.js";
import { createListMembers } from "./list-members.js";
import { createUpdateMember } from "./update-member.js";

/**
 * encore.account.v1.AccountService: an account's own principals. Every method authorizes
 * against the permission table (`account.*`) and answers NOT_FOUND otherwise (spec 5.3), but
 * GetCaller, which any valid credential may ask about itself.
 */
export function createAccountService(deps: ServiceDeps): ServiceImpl<typeof AccountService> {
  return {
    getCaller: createGetCaller(),
    getAccount: createGetAccount(deps),
    createApiKey: createCreateApiKey(deps),
    listApiKeys: createListApiKeys(deps),
    deleteApiKey: createDeleteApiKey(deps),
    createMember: createCreateMember(deps),
    listMembers: createListMembers(deps),
    updateMember: createUpdateMember(deps),
    deleteMember: createDeleteMember(deps),
  };
}
