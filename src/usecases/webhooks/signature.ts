import { createHmac, randomBytes } from "node:crypto";

// docs/webhooks.md "Signature": each delivery carries
//   Encore-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>[,v1=...]
// with one v1 per secret signing at the time (two during a rotation's overlap). The secret is
// used as UTF-8 text, whole (`whsec_...`).

export const SIGNATURE_HEADER = "Encore-Signature";
const SECRET_PREFIX = "whsec_";

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`)].join(",");
}
