import { describe, expect, it } from "vitest";
import { parseWebhookUrl, refusedAddress, WebhookUrlRefused } from "../../src/usecases/webhooks/address-guard.js";

const none = new Set<never>();

describe("webhook address guard", () => {
  it("refuses loopback, private, link-local and never-unicast addresses unless allowed", () => {
    for (const address of [
      "127.0.0.1",
      "::1",
      "10.1.2.3",
      "172.31.255.255",
      "192.168.0.1",
      "100.64.0.1",
      "fd12::1",
      "169.254.169.254",
      "fe80::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::",
    ]) {
      expect(refusedAddress(address, none), address).toBeDefined();
    }
    for (const address of ["93.184.216.34", "172.32.0.1", "2606:2800:220:1::1", "::ffff:93.184.216.34"]) {
      expect(refusedAddress(address, none), address).toBeUndefined();
    }
    expect(refusedAddress("127.0.0.1", new Set(["loopback"]))).toBeUndefined();
    expect(refusedAddress("10.0.0.1", new Set(["loopback"]))).toMatch(/private/);
    expect(refusedAddress("0.0.0.0", new Set(["loopback", "private", "link-local"]))).toMatch(/unicast/);
  });

  it("takes https only unless http is allowed, and no credentials or fragment", () => {
    expect(parseWebhookUrl("https://hooks.example.com/x", { allowHttp: false }).hostname).toBe("hooks.example.com");
    expect(() => parseWebhookUrl("http://hooks.example.com/x", { allowHttp: false })).toThrow(/https/);
    expect(parseWebhookUrl("http://hooks.example.com/x", { allowHttp: true }).protocol).toBe("http:");
    for (const url of ["https://u:p@hooks.example.com/", "https://hooks.example.com/#x", "ftp://x/", "nope"]) {
      expect(() => parseWebhookUrl(url, { allowHttp: true }), url).toThrow(WebhookUrlRefused);
    }
  });
});
