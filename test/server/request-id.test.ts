import { ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { acceptRequestId } from "../../src/server/request-id.js";
import { seedCampaign } from "../support/seed.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("acceptRequestId", () => {
  it.each([
    ["a UUID", "0b7c1e7e-5d4f-4c39-9d8e-1b2a3c4d5e6f"],
    ["one character", "x"],
    ["128 characters", "a".repeat(128)],
    ["dots, colons, underscores", "trace:01HZX.span_2-b"],
  ])("keeps %s", (_, id) => {
    expect(acceptRequestId(id)).toBe(id);
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["129 characters", "a".repeat(129)],
    ["a space", "a b"],
    ["a comma (two headers joined)", "a,b"],
    ["a quote", 'a"b'],
    ["a newline", "a\nb"],
    ["non-ASCII", "é"],
    ["repeated (HTTP/2 array)", ["a", "b"]],
  ])("replaces %s with a generated UUID", (_, header) => {
    expect(acceptRequestId(header)).toMatch(UUID);
  });
});

describe("X-Request-Id on the wire", () => {
  const lines: Record<string, unknown>[] = [];
  let server: TestServer;
  beforeAll(async () => {
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    server = await startTestServer({ logger });
  });
  afterAll(() => server.close());

  const callLine = (requestId: string) => lines.find((line) => line.requestId === requestId && "rpc" in line);

  it("echoes a well-formed id and logs the call with it at info: method, code, duration", async () => {
    const res = await server.rest(
      "POST",
      "/v1/public/funding:get",
      { campaignKey: "nope" },
      { "x-request-id": "lb-7f3a:42" },
    );
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBe("lb-7f3a:42");
    expect(callLine("lb-7f3a:42")).toMatchObject({
      level: 30,
      rpc: "encore.campaign.v1.CampaignService/GetPublicFunding",
      code: "NotFound",
      requestId: "lb-7f3a:42",
      ms: expect.any(Number),
    });
  });

  it("logs a served call at info with code OK", async () => {
    const { campaignKey } = await seedCampaign(server.db.database.prisma);
    const res = await server.rest("POST", "/v1/public/funding:get", { campaignKey }, { "x-request-id": "served-1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("served-1");
    expect(callLine("served-1")).toMatchObject({ level: 30, code: "OK", msg: "served", ms: expect.any(Number) });
  });

  it("replaces a malformed id with a generated one, echoed and logged", async () => {
    const res = await server.rest("POST", "/v1/public/funding:get", { campaignKey: "nope" }, { "x-request-id": "a b" });
    const id = res.headers.get("x-request-id") ?? "";
    expect(id).toMatch(UUID);
    expect(callLine(id)).toMatchObject({ code: "NotFound" });
  });

  it("does the same over Connect", async () => {
    const client = createClient(
      CampaignService,
      createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }),
    );
    const refusal = await client
      .getPublicFunding({ campaignKey: "nope" }, { headers: { "x-request-id": "connect-call-1" } })
      .then(
        () => undefined,
        (error: unknown) => ConnectError.from(error),
      );
    const echoed = refusal?.metadata.get("x-request-id");
    expect(echoed).toBe("connect-call-1");
    expect(callLine("connect-call-1")).toMatchObject({ rpc: "encore.campaign.v1.CampaignService/GetPublicFunding" });
  });
});
