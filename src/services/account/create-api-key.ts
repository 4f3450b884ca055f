import type { HandlerContext } from "@connectrpc/connect";
import type { ApiKey, CreateApiKeyRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import { API_KEY_PREFIX, issueToken } from "../../core/credentials.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { invalidArgument } from "../../errors/status.js";
import { insertApiKey } from "../../store/api-keys.js";
import { readDisplayName } from "../display-name.js";
import { authorizeParent } from "../management-access.js";
import { readRole, toApiKey } from "./account-mapper.js";
import { accountNotFound } from "./get-account.js";

/** Creates a key; its secret is in this response once and only its SHA-256 is stored. */
export function createCreateApiKey(deps: ServiceDeps) {
  return async (request: CreateApiKeyRequest, ctx: HandlerContext): Promise<ApiKey> => {
    const accountId = authorizeParent(ctx, "account.apiKeys.create", request.parent, accountNotFound);
    const input = request.apiKey;
    if (!input) throw invalidArgument('Missing required field "apiKey".');
    const role = readRole(input.role, "apiKey.role");
    const displayName = readDisplayName(input.displayName.trim(), "apiKey.displayName", { max: 200 });
    const now = deps.now();
    const secret = issueToken(API_KEY_PREFIX);
    const row = await insertApiKey(deps.db, {
      id: newId(now),
      accountId,
      displayName,
      role,
      keyHash: secret.hash,
      keyPrefix: secret.displayPrefix,
      createTime: now,
    });
    return toApiKey(row, secret.token);
  };
}
