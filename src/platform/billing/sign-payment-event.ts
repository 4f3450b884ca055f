import { Agent, fetch } from "undici";
import { PAYMENT_SIGNATURE_HEADER, PAYMENT_WEBHOOK_PATH, signPaymentPayload } from "./payment-signature.js";

// The simulated provider's side of the webhook: what a real provider does once a payer has
// paid. Used by tests and by `npm run admin -- simulate-payment`.

export interface PaymentEventToSend {
  /** The service, e.g. http://127.0.0.1:8080; the webhook path is appended. */
  baseUrl: string;
  secret: string;
  /** `accounts/{account}/checkoutSessions/{checkout_session}`. */
  checkoutSession: string;
  /** When the event is signed; now unless a test wants a stale one. */
  signedAt?: Date;
  /** For an https:// service: certificate authorities to trust, or no verification at all. */
  tls?: { ca?: Buffer; insecure?: boolean };
}

export interface PaymentEventReply {
  status: number;
  /** The service's JSON answer (e.g. `{"result":"credited"}` or a google.rpc.Status); text otherwise. */
  body: unknown;
}

/** Signs a `checkout.paid` event for the session and POSTs it to the service's webhook. */
export async function signPaymentEvent(event: PaymentEventToSend): Promise<PaymentEventReply> {
  const body = JSON.stringify({ type: "checkout.paid", checkoutSession: event.checkoutSession });
  const signature = signPaymentPayload({
    secret: event.secret,
    body,
    timestampSeconds: (event.signedAt ?? new Date()).getTime() / 1000,
  });
  const response = await fetch(new URL(PAYMENT_WEBHOOK_PATH, event.baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json", [PAYMENT_SIGNATURE_HEADER]: signature },
    body,
    ...(event.tls
      ? { dispatcher: new Agent({ connect: { ca: event.tls.ca, rejectUnauthorized: !event.tls.insecure } }) }
      : {}),
  });
  const text = await response.text();
  const json = response.headers.get("content-type")?.startsWith("application/json") ?? false;
  return { status: response.status, body: json && text ? JSON.parse(text) : text };
}
