import { createHmac, timingSafeEqual } from "node:crypto";

// The payment provider's webhook signature, both sides of it: the provider signs each
// notification with the shared webhook secret and we check it before believing a word.
// `x-payment-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the
// scheme real providers use: the timestamp is signed too, so a captured notification cannot
// be replayed once it is older than the tolerance.

export const PAYMENT_SIGNATURE_HEADER = "x-payment-signature";

/** Where the service receives the provider's notifications. */
export const PAYMENT_WEBHOOK_PATH = "/v1/billing/webhooks/payments";

/** How far a signature's timestamp may be from our clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

/**
 * The webhook secret: PAYMENT_WEBHOOK_SECRET when configured, else derived from the master
 * key (hex of HMAC-SHA256(masterKey, "payment-webhook")) so `npm start` needs no setup and the
 * admin CLI on the same machine derives the same one.
 */
export function paymentWebhookSecret(configured: string | undefined, masterKey: Buffer): string {
  return configured ?? createHmac("sha256", masterKey).update("payment-webhook").digest("hex");
}

/**
 * The secrets a notification may be signed with: the configured one, or the one derived from
 * the current master key and, during a master key rotation, the one derived from the previous
 * (the provider moves to the new one before ENCORE_MASTER_KEY_PREVIOUS is dropped).
 */
export function acceptedWebhookSecrets(
  configured: string | undefined,
  masterKeys: { current: Buffer; previous?: Buffer },
): string[] {
  if (configured) return [configured];
  const { current, previous } = masterKeys;
  return [current, ...(previous ? [previous] : [])].map((key) => paymentWebhookSecret(undefined, key));
}

/** The header value for `body` signed at `timestampSeconds`. */
export function signPaymentPayload(options: { secret: string; body: string; timestampSeconds: number }): string {
  const t = String(Math.floor(options.timestampSeconds));
  return `t=${t},v1=${digest(options.secret, t, Buffer.from(options.body, "utf8")).toString("hex")}`;
}

export interface VerifySignatureOptions {
  secret: string;
  /** The header as received; undefined when it was missing. */
  header: string | undefined;
  /** The raw body bytes exactly as received: the signature covers them, not a re-encoding. */
  body: Uint8Array;
  now: Date;
}

/** True when the header carries a v1 signature of this body by `secret`, made within the tolerance. */
export function verifyPaymentSignature(options: VerifySignatureOptions): boolean {
  const parsed = options.header === undefined ? undefined : parseHeader(options.header);
  if (!parsed) return false;
  const age = Math.abs(options.now.getTime() / 1000 - Number(parsed.t));
  if (!(age <= SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = digest(options.secret, parsed.t, options.body);
  // Every candidate is compared in full, in constant time: a provider rotating its secret
  // may send several v1 values.
  let matched = false;
  for (const hex of parsed.v1) {
    const given = Buffer.from(hex, "hex");
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

function digest(secret: string, t: string, body: Uint8Array): Buffer {
  return createHmac("sha256", secret).update(`${t}.`).update(body).digest();
}

function parseHeader(header: string): { t: string; v1: string[] } | undefined {
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value !== undefined && /^[0-9]{1,12}$/.test(value)) t = value;
    else if (key === "v1" && value !== undefined && /^[0-9a-f]{64}$/i.test(value)) v1.push(value);
  }
  return t === undefined || v1.length === 0 ? undefined : { t, v1 };
}
