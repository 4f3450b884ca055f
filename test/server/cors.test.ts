import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCampaign } from "../support/seed.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const ALLOWED = "https://game.example";

describe("CORS (spec 8, reference api-conventions 8)", () => {
  let server: TestServer;
  let campaignKey: string;
  beforeAll(async () => {
    server = await startTestServer();
    await server.db.database.prisma.operatorSettings.update({ where: { id: 1 }, data: { allowedOrigins: [ALLOWED] } });
    ({ campaignKey } = await seedCampaign(server.db.database.prisma));
  });
  afterAll(() => server.close());

  const preflight = (origin: string) =>
    fetch(`${server.baseUrl}/v1/public/funding:get`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });

  it("answers a preflight from an allowed origin with 204 and what the browser needs", async () => {
    const res = await preflight(ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-allow-methods")).toBe("POST");
    const allowHeaders = res.headers.get("access-control-allow-headers")?.toLowerCase() ?? "";
    for (const name of [
      "content-type",
      "connect-protocol-version",
      "connect-timeout-ms",
      "x-grpc-web",
      "grpc-timeout",
      "x-user-agent",
    ]) {
      expect(allowHeaders).toContain(name);
    }
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("answers a preflight on a Connect path too, before connect-node (which answers OPTIONS 405)", async () => {
    const res = await fetch(`${server.baseUrl}/encore.campaign.v1.CampaignService/GetPublicFunding`, {
      method: "OPTIONS",
      headers: { origin: ALLOWED, "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  it("adds the allowed origin and Vary: Origin to the actual response", async () => {
    const res = await server.rest("POST", "/v1/public/funding:get", { campaignKey }, { origin: ALLOWED });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-expose-headers")).toContain("Grpc-Status");
    expect(res.headers.get("vary")).toBe("Origin");
  });

  it.each(["https://evil.example", "null", "https://game.example.evil"])(
    "sends no CORS headers to origin %s",
    async (origin) => {
      const actual = await server.rest("POST", "/v1/public/funding:get", { campaignKey }, { origin });
      expect(actual.status).toBe(200);
      expect(actual.headers.get("access-control-allow-origin")).toBeNull();
      const pre = await preflight(origin);
      expect(pre.status).toBe(403);
      expect(pre.headers.get("access-control-allow-origin")).toBeNull();
      expect(pre.headers.get("access-control-allow-methods")).toBeNull();
    },
  );

  it("sends no CORS headers without an Origin", async () => {
    const res = await server.rest("POST", "/v1/public/funding:get", { campaignKey });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("vary")).toBeNull();
  });
});
