import type { MessageInitShape } from "@bufbuild/protobuf";
import type { EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteApiKeyRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import { notFound } from "../../errors/status.js";
import type { ServiceDeps } from "../deps.js";
import { authorize } from "../principal.js";
import { parseApiKeyName } from "./account-names.js";
import { deleteApiKey } from "./account-store.js";

const apiKeyNotFound = (name: string) => `API key "${name}" not found.`;

/** Deletes a key; the next call presenting it is UNAUTHENTICATED. */
export function createDeleteApiKey(deps: ServiceDeps) {
  return async (request: DeleteApiKeyRequest, ctx: HandlerContext): Promise<MessageInitShape<typeof EmptySchema>> => {
    const { accountId, id } = parseApiKeyName(request.name);
    authorize(ctx, "account.apiKeys.delete", accountId, apiKeyNotFound(request.name));
    if (!(await deleteApiKey(deps.db, accountId, id))) throw notFound(apiKeyNotFound(request.name));
    return {};
  };
}
