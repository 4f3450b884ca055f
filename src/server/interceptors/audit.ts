import type { DescMessage, Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor, type UnaryRequest } from "@connectrpc/connect";
import type { Logger } from "pino";
import type { AuditActorType } from "../../../gen/prisma/enums.js";
import { resources } from "../../domain/resource-names.js";
import { kClientAddress, kPrincipal, kRequestId, type Principal } from "../../services/context-keys.js";
import { newId } from "../../services/ids.js";
import type { NewAuditEvent } from "../../store/audit-events.js";
import { isWriteMethod } from "../audit/audited-methods.js";
import { changedFields, redactedRequest, resourceOf } from "../audit/describe-request.js";
import { isPublicMethod } from "../public-methods.js";
import type { Call, Next } from "./interceptor-types.js";

export interface AuditOptions {
  /** Stores one event (store/audit-events.ts insertAuditEvent, bound to the database). */
  record: (event: NewAuditEvent) => Promise<void>;
  now: () => Date;
  logger: Logger;
  /** Counts a failed write (encore_audit_write_failures_total), beside its error line. */
  onWriteFailed: () => void;
}

/**
 * Issue 16: records every management and operator write, whatever its outcome, and every call
 * refused UNAUTHENTICATED (docs/audit-log.md). Placed outside the request log, so the code it
 * records is the one the caller got (an unexpected failure is INTERNAL by then); the principal
 * is read from the context the authentication interceptor filled.
 *
 * The event is written after the call, not in the call's transaction: it is awaited before the
 * answer goes out, and a write that fails is logged at error with the whole event (which holds
 * no secret), so a successful change is never left unrecorded without a loud line. The call's
 * answer is not changed by it: the change is made and a retry could repeat it.
 */
export function createAuditInterceptor(options: AuditOptions): Interceptor {
  return (next) => (req) => (isPublicMethod(req.method) ? next(req) : audited(next, req));

  async function audited(next: Next, req: Call) {
    const write = isWriteMethod(req.method);
    try {
      const res = await next(req);
      if (write && !res.stream) await record(options, req, OK, { desc: req.method.output, message: res.message });
      return res;
    } catch (error) {
      const code = ConnectError.from(error).code;
      if (write || code === Code.Unauthenticated) await record(options, req, code, undefined);
      throw error;
    }
  }
}

// google.rpc.Code OK: Connect's Code has no member for success.
const OK = 0;

async function record(
  options: AuditOptions,
  req: Call,
  code: number,
  response: { desc: DescMessage; message: Message } | undefined,
): Promise<void> {
  let event: NewAuditEvent | undefined;
  try {
    event = describe(options.now(), req, code, response);
    await options.record(event);
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
function actorOf(
  principal: Principal | undefined,
  resource: string,
): { accountId: string | null; actorType: AuditActorType; actor: string; sessionId: string | null } {
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
