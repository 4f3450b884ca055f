import { createHmac, timingSafeEqual } from "node:crypto";

// Checks the `Encore-Signature` header of a webhook delivery (docs/webhooks.md):
//   Encore-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=...]
// There are two v1 values while the endpoint's secret is being rotated; one matching is enough.

export interface VerifyWebhookOptions {
  /** The endpoint's signing secret (`whsec_...`), as CreateWebhookEndpoint returned it. */
  secret: string;
  /** The request body exactly as received (before any JSON parsing). */
  body: string | Uint8Array;
  /** The Encore-Signature header's value. */
  header: string;
  /** How old a signature may be, in seconds (replays of older ones are refused); default 300. */
  toleranceSeconds?: number;
  /** Now, in Unix seconds; the clock unless given. */
  nowSeconds?: number;
}

/** Whether the delivery was signed with `secret`, within the tolerance. Never throws on bad input. */
export function verifyWebhookSignature(options: VerifyWebhookOptions): boolean {
  const parts = options.header.split(",").map((part) => part.trim().split("="));
  const t = parts.find(([key]) => key === "t")?.[1];
  const signatures = parts.filter(([key, value]) => key === "v1" && value).map(([, value]) => value as string);
  if (t === undefined || !/^\d+$/.test(t) || signatures.length === 0) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(t)) > (options.toleranceSeconds ?? 300)) return false;
  const body = typeof options.body === "string" ? Buffer.from(options.body, "utf8") : Buffer.from(options.body);
  const expected = createHmac("sha256", options.secret).update(`${t}.`).update(body).digest();
  return signatures.some((hex) => {
    const given = Buffer.from(hex, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
