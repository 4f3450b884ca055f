import type { DescMessage, Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor, type UnaryRequest } from "@connectrpc/connect";
import type { Logger } from "pino";
import { kClientAddress, kPrincipal, kRequestId, type Principal } from "../../core/context-keys.js";
import { newId } from "../../core/ids.js";
import { resources } from "../../domain/resource-names.js";
import type { FailedAuthenticationKey, NewAuditEvent } from "../../store/audit-events.js";
import { addressGroup } from "../address-group.js";
import { isWriteMethod } from "../audit/audited-methods.js";
import { changedFields, redactedRequest, resourceOf } from "../audit/describe-request.js";
import { isPublicMethod } from "../public-methods.js";
import type { Call, Next } from "./interceptor-types.js";

export interface AuditOptions {
  /** Stores one event (store/audit-events.ts insertAuditEvent, bound to the database). */
  record: (event: NewAuditEvent) => Promise<void>;
  /** Counts a failed authentication (store/audit-events.ts countFailedAuthentication, bound). */
  countFailedAuthentication: (event: NewAuditEvent, key: FailedAuthenticationKey) => Promise<void>;
  /** RATE_LIMIT_WINDOW_SECONDS: a failed authentication's event counts its address group's in one. */
  failedAuthWindowSeconds: number;
  now: () => Date;
  logger: Logger;
  /** Counts a failed write (encore_audit_write_failures_total), beside its error line. */
  onWriteFailed: () => void;
}

/**
 * Records every management and operator write of an authenticated caller, whatever its outcome,
 * and counts the calls refused UNAUTHENTICATED as one event per address group (IPv6 /64) and
 * rate-limit window; a call refused before authentication for another reason (429) did nothing
 * and is not recorded (docs/audit-log.md "Failed authentications"). Outside the request log, so
 * the code recorded is the one the caller got.
 *
 * Written after the call, not in its transaction, and awaited before the answer: a write that
 * fails is logged at error with the whole event (it holds no secret), and the call's answer is
 * not changed, since the change is made and a retry could repeat it.
 */
export function createAuditInterceptor(options: AuditOptions): Interceptor {
  return (next) => (req) => (isPublicMethod(req.method) ? next(req) : audited(next, req));

  async function audited(next: Next, req: Call) {
    const write = isWriteMethod(req.method);
    const insert = options.record;
    try {
      const res = await next(req);
      if (write && !res.stream) {
        const response = { desc: req.method.output, message: res.message };
        await record(options, req, OK, insert, response);
      }
      return res;
    } catch (error) {
      const code = ConnectError.from(error).code;
      const authenticated = req.contextValues.get(kPrincipal) !== undefined;
      if (!authenticated && code === Code.Unauthenticated) {
        await record(options, req, code, (event) => countFailure(options, event));
      } else if (authenticated && (write || code === Code.Unauthenticated)) {
        await record(options, req, code, insert);
      }
      throw error;
    }
  }
}

function countFailure(options: AuditOptions, event: NewAuditEvent): Promise<void> {
  const windowMs = options.failedAuthWindowSeconds * 1000;
  // Windows aligned on the clock, so every replica counts a failure under the same key.
  const windowStart = new Date(Math.floor(event.createTime.getTime() / windowMs) * windowMs);
  return options.countFailedAuthentication(event, { addressGroup: addressGroup(event.address), windowStart });
}

// google.rpc.Code OK: Connect's Code has no member for success.
const OK = 0;

async function record(
  options: AuditOptions,
  req: Call,
  code: number,
  store: (event: NewAuditEvent) => Promise<void>,
  response?: { desc: DescMessage; message: Message },
): Promise<void> {
  let event: NewAuditEvent | undefined;
  try {
    event = describe(options.now(), req, code, response);
    await store(event);
  } catch (error) {
    options.onWriteFailed();
    options.logger.error(
      { err: error, auditEvent: event, rpc: `${req.service.typeName}/${req.method.name}` },
      "audit event NOT recorded",
    );
  }
}

function describe(
  now: Date,
  req: Call,
  code: number,
  response: { desc: DescMessage; message: Message } | undefined,
): NewAuditEvent {
  const message = req.stream ? undefined : (req as UnaryRequest).message;
  const request = message && { desc: req.method.input, message };
  const resource = request ? resourceOf(request, response) : "";
  const principal = req.contextValues.get(kPrincipal);
  return {
    id: newId(now),
    ...actorOf(principal, resource),
    method: `${req.service.typeName}/${req.method.name}`,
    resource,
    changedFields: request ? changedFields(request.desc, request.message) : [],
    request: request ? (redactedRequest(request.desc, request.message) ?? {}) : {},
    address: req.contextValues.get(kClientAddress),
    requestId: req.contextValues.get(kRequestId),
    code,
    createTime: now,
  };
}

const ACCOUNT_OF_RESOURCE = /^accounts\/([^/]+)/;

/**
 * Who acted, and in which account's log the event belongs: the caller's own account for a key
 * or a session (even when the resource named is another's: that account learns nothing), the
 * account of the resource for the operator (a studio sees the operator's decisions on its
 * campaigns), none for a call nobody was authenticated for.
 */
type Actor = Pick<NewAuditEvent, "accountId" | "actorType" | "actor" | "sessionId">;

function actorOf(principal: Principal | undefined, resource: string): Actor {
  if (!principal) return { accountId: null, actorType: "NONE", actor: "", sessionId: null };
  if (principal.kind === "operator") {
    return {
      accountId: ACCOUNT_OF_RESOURCE.exec(resource)?.[1] ?? null,
      actorType: "OPERATOR",
      actor: "operator",
      sessionId: null,
    };
  }
  if (principal.kind === "apiKey") {
    return {
      accountId: principal.accountId,
      actorType: "API_KEY",
      actor: resources.apiKey.format({ accountId: principal.accountId, apiKeyId: principal.id }),
      sessionId: null,
    };
  }
  return {
    accountId: principal.accountId,
    actorType: "SESSION",
    actor: resources.member.format({ accountId: principal.accountId, memberId: principal.memberId }),
    sessionId: principal.id,
  };
}
