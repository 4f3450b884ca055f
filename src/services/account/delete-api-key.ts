import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteApiKeyRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { deleteApiKey } from "../../store/api-keys.js";
import { readName } from "../management-access.js";
import { authorize } from "../principal.js";
import { refuseLastOwner } from "./last-owner.js";

const apiKeyNotFound = (name: string) => `API key "${name}" not found.`;

/**
 * Deletes a key; the next call presenting it is UNAUTHENTICATED. The account's last owner
 * key, with no owner member left, stays: LAST_OWNER (last-owner.ts).
 */
export function createDeleteApiKey(deps: ServiceDeps) {
  return async (request: DeleteApiKeyRequest, ctx: HandlerContext): Promise<Empty> => {
    const { accountId, apiKeyId } = readName(resources.apiKey, request.name, "name");
    authorize(ctx, "account.apiKeys.delete", accountId, apiKeyNotFound(request.name));
    const outcome = await deleteApiKey(deps.db, accountId, apiKeyId);
    if (outcome.kind === "absent") throw notFound(apiKeyNotFound(request.name));
    if (outcome.kind === "lastOwner") throw refuseLastOwner(deps, request.name);
    return create(EmptySchema);
  };
}
