import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

describe("a 429 comes before any work (spec 8)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_PER_ADDRESS: "2" } });
  });
  afterAll(() => server.close());

  it("counts REST calls before their body is read, and counts each call once", async () => {
    const first = await server.rest("POST", "/v1/public/funding:get", { campaignKey: "nope" });
    const second = await server.rest("POST", "/v1/public/funding:get", "{");
    expect([first.status, second.status]).toEqual([404, 400]);
    // The allowance is spent: neither a malformed nor an oversized body is read any more.
    const malformed = await server.rest("POST", "/v1/public/funding:get", "{");
    const huge = await server.rest("POST", "/v1/public/funding:get", { pad: "x".repeat(70_000) });
    expect([malformed.status, huge.status]).toEqual([429, 429]);
    expect(malformed.body).toEqual({ code: 8, message: expect.any(String), details: [] });
    expect(malformed.headers.get("cache-control")).toBe("no-store");
  });
});
