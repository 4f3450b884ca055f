import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type CreateAccountRequest,
  type CreateAccountResponse,
  CreateAccountResponseSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { API_KEY_PREFIX, issueToken } from "../../core/credentials.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { readRequestId } from "../../domain/request-id.js";
import { alreadyExists } from "../../errors/status.js";
import { findAccountByRequestId, insertAccountWithOwnerKey } from "../../store/accounts.js";
import { findApiKeyByHash } from "../../store/api-keys.js";
import { violates } from "../../store/constraint-violation.js";
import { toAccount, toApiKey } from "../account/account-mapper.js";
import { readDisplayName } from "../display-name.js";
import { requireOperator } from "../principal.js";
import { deriveFirstApiKey } from "./first-api-key.js";

type Response = CreateAccountResponse;

const FIRST_KEY_NAME = "First owner key";

/**
 * An account with its first account.owner API key. Idempotent on request_id: a retry gets the
 * same account and the same working secret (first-api-key.ts), or no key once it was deleted.
 */
export function createCreateAccount(deps: ServiceDeps) {
  return async (request: CreateAccountRequest, ctx: HandlerContext): Promise<Response> => {
    requireOperator(ctx);
    const displayName = readDisplayName(request.displayName.trim(), "displayName", { max: 200, required: true });
    const requestId = readRequestId(request.requestId);
    if (requestId !== undefined) {
      const earlier = await replay(deps, requestId, displayName);
      if (earlier) return earlier;
    }
    const now = deps.now();
    const accountId = newId(now);
    const secret =
      requestId === undefined ? issueToken(API_KEY_PREFIX) : deriveFirstApiKey(deps.masterKeys.current, accountId);
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
      return create(CreateAccountResponseSchema, {
        account: toAccount(created.account),
        apiKey: toApiKey(created.ownerKey, secret.token),
      });
    } catch (error) {
      // A concurrent call with the same request_id won the unique index: answer as it did.
      const earlier =
        requestId !== undefined && violates(error, "unique") ? await replay(deps, requestId, displayName) : undefined;
      if (earlier) return earlier;
      throw error;
    }
  };
}

async function replay(deps: ServiceDeps, requestId: string, displayName: string): Promise<Response | undefined> {
  const account = await findAccountByRequestId(deps.db, requestId);
  if (!account) return undefined;
  if (account.displayName !== displayName) throw alreadyExists(`"requestId" was already used for a different account.`);
  // Derived under the key current when the account was made: during a rotation, the previous.
  for (const masterKey of [deps.masterKeys.current, deps.masterKeys.previous]) {
    if (!masterKey) continue;
    const secret = deriveFirstApiKey(masterKey, account.id);
    const key = await findApiKeyByHash(deps.db, account.id, secret.hash);
    if (key)
      return create(CreateAccountResponseSchema, { account: toAccount(account), apiKey: toApiKey(key, secret.token) });
  }
  return create(CreateAccountResponseSchema, { account: toAccount(account) });
}
