import { describe, expect, it } from "vitest";
import { parseWebhookUrl, WebhookUrlRefused } from "../../src/usecases/webhooks/address-guard.js";

// The addresses themselves: test/domain/webhook-address.unit.test.ts.
describe("webhook address guard", () => {
  it("takes https only unless http is allowed, and no credentials or fragment", () => {
    expect(parseWebhookUrl("https://hooks.example.com/x", { allowHttp: false }).hostname).toBe("hooks.example.com");
    expect(() => parseWebhookUrl("http://hooks.example.com/x", { allowHttp: false })).toThrow(/https/);
    expect(parseWebhookUrl("http://hooks.example.com/x", { allowHttp: true }).protocol).toBe("http:");
    for (const url of ["https://u:p@hooks.example.com/", "https://hooks.example.com/#x", "ftp://x/", "nope"]) {
      expect(() => parseWebhookUrl(url, { allowHttp: true }), url).toThrow(WebhookUrlRefused);
    }
  });
});
