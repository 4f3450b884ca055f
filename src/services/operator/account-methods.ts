import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { OperatorService } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { API_KEY_PREFIX, issueToken, SESSION_PREFIX } from "../../core/credentials.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { readRequestId } from "../../domain/request-id.js";
import { resources } from "../../domain/resource-names.js";
import { alreadyExists, invalidArgument, notFound } from "../../errors/status.js";
import { findAccountByRequestId, insertAccountWithOwnerKey, listAccounts } from "../../store/accounts.js";
import { findApiKeyByHash } from "../../store/api-keys.js";
import { violates } from "../../store/constraint-violation.js";
import { findMember } from "../../store/members.js";
import { insertSession } from "../../store/sessions.js";
import { toAccount, toApiKey } from "../account/account-mapper.js";
import { readDisplayName } from "../display-name.js";
import { listById } from "../list-page.js";
import { readName } from "../management-access.js";
import { requireOperator } from "../principal.js";
import { deriveFirstApiKey } from "./first-api-key.js";

const FIRST_KEY_NAME = "First owner key";

// A session is the stand-in for a real identity provider's sign-in: 12 hours by default and
// at most, so a leaked token stops working on its own.
const MAX_SESSION_SECONDS = 12n * 60n * 60n;

type AccountMethods = Pick<ServiceImpl<typeof OperatorService>, "createAccount" | "listAccounts" | "createSession">;

/** Accounts as the operator opens and lists them, and their members' sessions. */
export function createAccountMethods(deps: ServiceDeps): AccountMethods {
  return {
    /**
     * An account with its first account.owner API key. Idempotent on request_id: a retry gets the
     * same account and the same working secret (first-api-key.ts), or no key once it was deleted.
     */
    async createAccount(request, ctx) {
      requireOperator(ctx);
      const displayName = readDisplayName(request.displayName.trim(), "displayName", { max: 200, required: true });
      const requestId = readRequestId(request.requestId);
      if (requestId !== undefined) {
        const earlier = await replayCreateAccount(deps, requestId, displayName);
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
        return { account: toAccount(created.account), apiKey: toApiKey(created.ownerKey, secret.token) };
      } catch (error) {
        // A concurrent call with the same request_id won the unique index: answer as it did.
        const earlier =
          requestId !== undefined && violates(error, "unique")
            ? await replayCreateAccount(deps, requestId, displayName)
            : undefined;
        if (earlier) return earlier;
        throw error;
      }
    },

    /** Every account, paged by id (creation order). */
    async listAccounts(request, ctx) {
      requireOperator(ctx);
      const page = await listById(deps, request, { scope: "accounts", load: (next) => listAccounts(deps.db, next) });
      return { accounts: page.items.map(toAccount), nextPageToken: page.nextPageToken };
    },

    /** Issues a member's session; the token is in this response only, its SHA-256 is stored. */
    async createSession(request, ctx) {
      requireOperator(ctx);
      const { accountId, memberId } = readName(resources.member, request.member, "member");
      const ttl = request.ttlSeconds === 0n ? MAX_SESSION_SECONDS : request.ttlSeconds;
      if (ttl < 0n || ttl > MAX_SESSION_SECONDS) {
        throw invalidArgument(`"ttlSeconds" must be between 1 and ${MAX_SESSION_SECONDS} (12 hours).`);
      }
      const member = await findMember(deps.db, accountId, memberId);
      if (!member) throw notFound(`Member "${request.member}" not found.`);
      const now = deps.now();
      const expireTime = new Date(now.getTime() + Number(ttl) * 1000);
      const secret = issueToken(SESSION_PREFIX);
      await insertSession(deps.db, { id: newId(now), memberId, tokenHash: secret.hash, expireTime, createTime: now });
      return { token: secret.token, member: request.member, expireTime: timestampFromDate(expireTime) };
    },
  };
}

async function replayCreateAccount(deps: ServiceDeps, requestId: string, displayName: string) {
  const account = await findAccountByRequestId(deps.db, requestId);
  if (!account) return undefined;
  if (account.displayName !== displayName) throw alreadyExists(`"requestId" was already used for a different account.`);
  // Derived under the key current when the account was made: during a rotation, the previous.
  for (const masterKey of [deps.masterKeys.current, deps.masterKeys.previous]) {
    if (!masterKey) continue;
    const secret = deriveFirstApiKey(masterKey, account.id);
    const key = await findApiKeyByHash(deps.db, account.id, secret.hash);
    if (key) return { account: toAccount(account), apiKey: toApiKey(key, secret.token) };
  }
  return { account: toAccount(account) };
}
