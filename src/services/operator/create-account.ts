import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  CreateAccountRequest,
  CreateAccountResponseSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { readRequestId } from "../../domain/request-id.js";
import { alreadyExists, invalidArgument } from "../../errors/status.js";
import { findAccountByRequestId, insertAccountWithOwnerKey } from "../../store/accounts.js";
import { findApiKeyByHash } from "../../store/api-keys.js";
import { isUniqueViolation } from "../../store/unique-violation.js";
import { toAccount, toApiKey } from "../account/account-mapper.js";
import { API_KEY_PREFIX, issueToken } from "../credentials.js";
import type { ServiceDeps } from "../deps.js";
import { newId } from "../ids.js";
import { requireOperator } from "../principal.js";
import { deriveFirstApiKey } from "./first-api-key.js";

type Response = MessageInitShape<typeof CreateAccountResponseSchema>;

const MAX_DISPLAY_NAME = 200;
const FIRST_KEY_NAME = "First owner key";

/**
 * An account with its first account.owner API key. Idempotent on request_id: a retry gets the
 * same account and the same working secret (first-api-key.ts), or no key once it was deleted.
 */
export function createCreateAccount(deps: ServiceDeps) {
  return async (request: CreateAccountRequest, ctx: HandlerContext): Promise<Response> => {
    requireOperator(ctx);
    const displayName = request.displayName.trim();
    if (displayName.length === 0 || displayName.length > MAX_DISPLAY_NAME) {
      throw invalidArgument(`"displayName" must be 1 to ${MAX_DISPLAY_NAME} characters.`);
    }
    const requestId = readRequestId(request.requestId);
    if (requestId !== undefined) {
      const earlier = await replay(deps, requestId, displayName);
      if (earlier) return earlier;
    }
    const now = deps.now();
    const accountId = newId(now);
    const secret = requestId === undefined ? issueToken(API_KEY_PREFIX) : deriveFirstApiKey(deps.masterKey, accountId);
    try {
      const created = await insertAccountWithOwnerKey(deps.db, {
        account: { id: accountId, displayName, requestId: requestId ?? null, createTime: now },
        ownerKey: {
          id: newId(now),
          displayName: FIRST_KEY_NAME,
          keyHash: secret.hash,
          keyPrefix: secret.displayPrefix,
        },
      });
      return { account: toAccount(created.account), apiKey: toApiKey(created.ownerKey, secret.token) };
    } catch (error) {
      // A concurrent call with the same request_id won the unique index: answer as it did.
      const earlier =
        requestId !== undefined && isUniqueViolation(error) ? await replay(deps, requestId, displayName) : undefined;
      if (earlier) return earlier;
      throw error;
    }
  };
}

async function replay(deps: ServiceDeps, requestId: string, displayName: string): Promise<Response | undefined> {
  const account = await findAccountByRequestId(deps.db, requestId);
  if (!account) return undefined;
  if (account.displayName !== displayName) throw alreadyExists(`"requestId" was already used for a different account.`);
  const secret = deriveFirstApiKey(deps.masterKey, account.id);
  const key = await findApiKeyByHash(deps.db, account.id, secret.hash);
  return { account: toAccount(account), apiKey: key ? toApiKey(key, secret.token) : undefined };
}
