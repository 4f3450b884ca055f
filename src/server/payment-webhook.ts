import { createRegistry } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { resources } from "../domain/resource-names.js";
import { invalidArgument, unauthenticated } from "../errors/status.js";
import {
  PAYMENT_SIGNATURE_HEADER,
  PAYMENT_WEBHOOK_PATH,
  verifyPaymentSignature,
} from "../platform/billing/payment-signature.js";
import { completeCheckoutSession, findCheckoutSession } from "../store/checkout.js";
import type { Db } from "../store/open-database.js";
import { readBody } from "../transcode/read-body.js";
import { type RestRequest, type RestResponse, sendJson } from "../transcode/respond.js";
import { errorToStatus } from "../transcode/status-json.js";
import type { ClientAddresses } from "./client-address.js";
import type { FailedAuthLimit } from "./interceptors/failed-auth-limit.js";

export interface PaymentWebhookOptions {
  /**
   * Shared with the payment provider (PAYMENT_WEBHOOK_SECRET, or derived from the master key);
   * a signature under any one of them is accepted (derived: under the current master key, and
   * during a rotation under the previous one too).
   */
  secrets: readonly string[];
  db: Db;
  now: () => Date;
  /**
   * A bad signature is a failed authentication of its address (docs/abuse-limits.md "Failed
   * authentication"): once they are spent, 429 before the body is read.
   */
  failedAuth: FailedAuthLimit;
}

interface WebhookContext extends PaymentWebhookOptions {
  maxBodyBytes: number;
  logger: Logger;
  clientAddresses: ClientAddresses;
}

type Answer = { result: "credited" | "duplicate" } | { result: "ignored"; reason: string };

/**
 * `POST /v1/billing/webhooks/payments`: the payment provider tells us a checkout session was
 * paid, and the session's project (or account) is credited exactly once. Plain HTTP, not an
 * RPC: the provider signs the raw body (payment-signature.ts) and knows nothing of Connect.
 *
 * 429 (code 8) before the body is read once the address spent its failed authentications; 401
 * (code 16) unless the signature is valid and fresh; 400 (code 3) for a body over the limit or
 * not a well-formed event; else 200, as a provider retries anything else: a redelivery is
 * `{"result":"duplicate"}`, and an event we will never act on `{"result":"ignored"}` (a payer
 * whose session expired is refunded by the provider, not credited late).
 */
export function createPaymentWebhook(context: WebhookContext) {
  const registry = createRegistry();
  const onInternalError = (cause: unknown) => context.logger.error({ err: cause }, "payment webhook failed");
  return (req: RestRequest, res: RestResponse): boolean => {
    if (req.method !== "POST" || req.url?.split("?")[0] !== PAYMENT_WEBHOOK_PATH) return false;
    const fail = (error: unknown, close = false) => {
      const { httpStatus, body } = errorToStatus(error, { registry, onInternalError });
      sendJson(req, res, { status: httpStatus, body, close });
    };
    // The connection's client, never a header (spec 8).
    const address = context.clientAddresses.of(req.socket);
    const answer = () =>
      readBody(req, context.maxBodyBytes)
        .then(async (read) => {
          // Spec 8: 64 KiB; the rest of the body is never read, so the connection is closed.
          if (read.kind === "too-large") return fail(invalidArgument("The event body is too large."), true);
          if (read.kind === "aborted")
            return context.logger.debug({ reason: read.cause.message }, "request aborted by the client");
          sendJson(req, res, { status: 200, body: await receive(context, req, { address, bytes: read.bytes }) });
        })
        .catch((error: unknown) => fail(error));
    // Refused before the body is read: the connection is closed rather than drained.
    context.failedAuth.refuseIfSpent(address).then(answer, (error: unknown) => fail(error, true));
    return true;
  };
}

async function receive(
  context: WebhookContext,
  req: RestRequest,
  { address, bytes }: { address: string; bytes: Uint8Array },
): Promise<Answer> {
  const header = req.headers[PAYMENT_SIGNATURE_HEADER];
  const verify = async () =>
    context.secrets.some((secret) =>
      verifyPaymentSignature({
        secret,
        header: typeof header === "string" ? header : undefined,
        body: bytes,
        now: context.now(),
      }),
    ) || undefined;
  const signed = await context.failedAuth.attempt(address, verify);
  if (!signed) throw unauthenticated(`A valid, current ${PAYMENT_SIGNATURE_HEADER} header is required.`);
  const event = parseEvent(bytes);
  if (event.type !== "checkout.paid") return { result: "ignored", reason: `event type "${event.type}" is not handled` };
  const answer = await creditOnce(context, event.checkoutSession);
  context.logger.info({ checkoutSession: event.checkoutSession, ...answer }, "payment notification");
  return answer;
}

async function creditOnce(context: WebhookContext, checkoutSession: string): Promise<Answer> {
  const name = resources.checkoutSession.parse(checkoutSession);
  if (!name.ok) throw invalidArgument(resources.checkoutSession.mustBe("checkoutSession"));
  // A session never changes account, so this read cannot race the conditional completion.
  const session = await findCheckoutSession(context.db, name.value.accountId, name.value.sessionId);
  if (!session) return { result: "ignored", reason: "unknown checkout session" };
  const completion = await completeCheckoutSession(context.db, { id: session.id, now: context.now() });
  if (completion === "credited") return { result: "credited" };
  if (completion === "alreadyComplete") return { result: "duplicate" };
  return {
    result: "ignored",
    reason: completion === "expired" ? "checkout session expired" : "unknown checkout session",
  };
}

function parseEvent(bytes: Uint8Array): { type: string; checkoutSession: string } {
  let event: unknown;
  try {
    event = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    throw invalidArgument("The event body is not valid JSON.");
  }
  const { type, checkoutSession } = (typeof event === "object" && event !== null ? event : {}) as Record<
    string,
    unknown
  >;
  if (typeof type !== "string") throw invalidArgument('The event needs a string "type".');
  if (type === "checkout.paid" && typeof checkoutSession !== "string") {
    throw invalidArgument('A checkout.paid event needs a string "checkoutSession".');
  }
  return { type, checkoutSession: typeof checkoutSession === "string" ? checkoutSession : "" };
}
