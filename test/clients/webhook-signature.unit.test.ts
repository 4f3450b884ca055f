import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "../../clients/ts/src/webhook-signature.js";
import { signatureHeader } from "../../src/usecases/webhooks/signature.js";

// The TypeScript client's check against the service's signer (docs/webhooks.md).
const secret = "whsec_test-secret";
const body = '{"id":"evt_1","type":"purchase.credited"}';
const t = 1_790_000_000;

describe("verifyWebhookSignature", () => {
  it("accepts what the service signs, with the body as text or bytes", () => {
    const header = signatureHeader([secret], t, body);
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: t })).toBe(true);
    expect(verifyWebhookSignature({ secret, body: new TextEncoder().encode(body), header, nowSeconds: t + 10 })).toBe(
      true,
    );
  });

  it("accepts either signature during a rotation's overlap", () => {
    const header = signatureHeader(["whsec_new", secret], t, body);
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: t })).toBe(true);
    expect(verifyWebhookSignature({ secret: "whsec_new", body, header, nowSeconds: t })).toBe(true);
  });

  it("refuses another secret, another body, another timestamp, an old one, and junk", () => {
    const header = signatureHeader([secret], t, body);
    expect(verifyWebhookSignature({ secret: "whsec_other", body, header, nowSeconds: t })).toBe(false);
    expect(verifyWebhookSignature({ secret, body: `${body} `, header, nowSeconds: t })).toBe(false);
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(verifyWebhookSignature({ secret, body, header: moved, nowSeconds: t })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: t + 301 })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: t + 3600, toleranceSeconds: 7200 })).toBe(true);
    for (const junk of ["", "t=1", "v1=00", `t=abc,v1=${"0".repeat(64)}`, `t=${t},v1=zz`]) {
      expect(verifyWebhookSignature({ secret, body, header: junk, nowSeconds: t })).toBe(false);
    }
  });

  it("is HMAC-SHA256 over `t.body`, as docs/webhooks.md says", () => {
    const hex = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    expect(signatureHeader([secret], t, body)).toBe(`t=${t},v1=${hex}`);
  });
});

describe("docs/webhooks.md's ten-line check", () => {
  it("accepts what the service signs and refuses the rest", async () => {
    const { readFileSync } = await import("node:fs");
    const { createHmac: hmac, timingSafeEqual } = await import("node:crypto");
    const doc = readFileSync(new URL("../../docs/webhooks.md", import.meta.url), "utf8");
    const block = /```js\n([\s\S]*?)```/.exec(doc)?.[1] ?? "";
    const source = block.replace(/^import .*$/m, "");
    expect(source.split("\n").filter((line) => line.trim() !== "").length).toBeLessThanOrEqual(10);
    const verify = new Function("createHmac", "timingSafeEqual", `${source}; return verify;`)(
      hmac,
      timingSafeEqual,
    ) as (secret: string, body: string, header: string) => boolean;
    const now = Math.floor(Date.now() / 1000);
    expect(verify(secret, body, signatureHeader([secret], now, body))).toBe(true);
    expect(verify(secret, body, signatureHeader(["whsec_new", secret], now, body))).toBe(true);
    expect(verify("whsec_other", body, signatureHeader([secret], now, body))).toBe(false);
    expect(verify(secret, `${body} `, signatureHeader([secret], now, body))).toBe(false);
    expect(verify(secret, body, signatureHeader([secret], now - 600, body))).toBe(false);
  });
});
