import type { Interceptor } from "@connectrpc/connect";
import { OperatorAuditService } from "../../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { kClientAddress, kPrincipal, type Principal } from "../../core/context-keys.js";
import { API_KEY_PREFIX, bearerToken, hashToken, SESSION_PREFIX, sameSecret } from "../../core/credentials.js";
import { unauthenticated } from "../../errors/status.js";
import { findApiKeyByToken } from "../../store/api-keys.js";
import type { Db } from "../../store/open-database.js";
import { findLiveSession } from "../../store/sessions.js";
import { isPublicMethod } from "../public-methods.js";
import type { FailedAuthLimit } from "./failed-auth-limit.js";
import type { Call, Next } from "./interceptor-types.js";

/** The services only the operator token reaches; no account's key or session ever does. */
const OPERATOR_SERVICES = new Set([OperatorService.typeName, OperatorAuditService.typeName]);

export interface AuthenticateOptions {
  db: Db;
  operatorToken: string;
  now: () => Date;
  /** Failed authentications per address: 429 before any work once they are spent (spec 8). */
  failedAuth: Pick<FailedAuthLimit, "attempt">;
}

/**
 * Resolves `Authorization: Bearer <token>` into the caller for every management call:
 * UNAUTHENTICATED when it is missing or nobody issued it, and 429 (code 8) before looking at
 * it once the caller's address has spent its failed authentications (docs/abuse-limits.md
 * "Failed authentication"). Public calls skip this entirely: "No Authorization header is read;
 * sending one has no effect" (spec 5.1).
 */
export function createAuthenticateInterceptor(options: AuthenticateOptions): Interceptor {
  return (next) => (req) => (isPublicMethod(req.method) ? next(req) : authenticated(next, req));

  async function authenticated(next: Next, req: Call) {
    const address = req.contextValues.get(kClientAddress);
    const principal = await options.failedAuth.attempt(address, () => resolvePrincipal(options, req));
    if (!principal) throw unauthenticated();
    req.contextValues.set(kPrincipal, principal);
    return next(req);
  }
}

/** The caller `Authorization: Bearer <token>` names, or undefined: none, or nobody issued it. */
async function resolvePrincipal(options: AuthenticateOptions, req: Call): Promise<Principal | undefined> {
  const token = bearerToken(req.header.get("authorization"));
  if (!token) return undefined;
  if (OPERATOR_SERVICES.has(req.service.typeName)) {
    return sameSecret(token, options.operatorToken) ? { kind: "operator" } : undefined;
  }
  return resolveAccountPrincipal(options, token);
}

/**
 * An API key or a live session, told apart by their prefixes (credentials.ts), so a token of
 * neither shape costs no query. Role and membership are read on every call: a deleted key, a
 * removed member or a changed role takes effect at once.
 */
async function resolveAccountPrincipal(options: AuthenticateOptions, token: string): Promise<Principal | undefined> {
  const hash = hashToken(token);
  if (token.startsWith(API_KEY_PREFIX)) {
    const key = await findApiKeyByToken(options.db, hash);
    return key ? { kind: "apiKey", id: key.id, accountId: key.accountId, role: key.role } : undefined;
  }
  if (!token.startsWith(SESSION_PREFIX)) return undefined;
  const session = await findLiveSession(options.db, hash, options.now());
  if (!session) return undefined;
  return {
    kind: "session",
    id: session.id,
    memberId: session.member.id,
    accountId: session.member.accountId,
    role: session.member.role,
  };
}
