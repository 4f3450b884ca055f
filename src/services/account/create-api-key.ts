import type { HandlerContext } from "@connectrpc/connect";
import type { ApiKey, CreateApiKeyRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { invalidArgument } from "../../errors/status.js";
import { insertApiKey } from "../../store/api-keys.js";
import { readName } from "../campaign/management-access.js";
import { API_KEY_PREFIX, issueToken } from "../credentials.js";
import type { ServiceDeps } from "../deps.js";
import { newId } from "../ids.js";
import { authorize } from "../principal.js";
import { readRole, toApiKey } from "./account-mapper.js";
import { ACCOUNT_SHAPE, accountNotFound } from "./get-account.js";

export const MAX_DISPLAY_NAME = 200;

/** Creates a key; its secret is in this response once and only its SHA-256 is stored. */
export function createCreateApiKey(deps: ServiceDeps) {
  return async (request: CreateApiKeyRequest, ctx: HandlerContext): Promise<ApiKey> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", ACCOUNT_SHAPE);
    authorize(ctx, "account.apiKeys.create", accountId, accountNotFound(request.parent));
    const input = request.apiKey;
    if (!input) throw invalidArgument('Missing required field "apiKey".');
    const role = readRole(input.role, "apiKey.role");
    const displayName = input.displayName.trim();
    if (displayName.length > MAX_DISPLAY_NAME) {
      throw invalidArgument(`"apiKey.displayName" must be at most ${MAX_DISPLAY_NAME} characters.`);
    }
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
