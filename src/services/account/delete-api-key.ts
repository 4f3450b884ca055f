import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteApiKeyRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { deleteApiKey } from "../../store/api-keys.js";
import { authorizeName } from "../management-access.js";
import { ownerGuardedValue } from "./last-owner.js";

const apiKeyNotFound = (name: string) => `API key "${name}" not found.`;

/**
 * Deletes a key; the next call presenting it is UNAUTHENTICATED. The account's last owner
 * key, with no owner member left, stays: LAST_OWNER (last-owner.ts).
 */
export function createDeleteApiKey(deps: ServiceDeps) {
  return async (request: DeleteApiKeyRequest, ctx: HandlerContext): Promise<Empty> => {
    const key = authorizeName(ctx, "account.apiKeys.delete", resources.apiKey, request.name, {
      missing: apiKeyNotFound,
    });
    ownerGuardedValue(deps, await deleteApiKey(deps.db, key.name.accountId, key.name.apiKeyId), key);
    return create(EmptySchema);
  };
}
