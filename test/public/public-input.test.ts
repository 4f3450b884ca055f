import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCampaign } from "../support/seed.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

describe("public input the store could never hold or a JSON number could not carry", () => {
  let server: TestServer;
  let campaignKey: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ campaignKey } = await seedCampaign(server.db.database.prisma));
  });
  afterAll(() => server.close());

  it.each([
    ["funding:get", { campaignKey: "ck_\u0000x" }],
    ["offers:list", { campaignKey: "ck_\u0000x" }],
    ["purchases:begin", { campaignKey: "KEY", offerId: "we\u0000ek", authTicket: "00" }],
    ["purchases:begin", { campaignKey: "KEY", offerId: "week", authTicket: "00", requestId: "a\u0000b" }],
    ["purchases:complete", { campaignKey: "KEY", purchase: "a\u0000", orderId: "5", authorized: true }],
  ])("refuses a NUL character on %s with 400 code 3", async (call, body) => {
    const res = await server.rest(
      "POST",
      `/v1/public/${call}`,
      JSON.parse(JSON.stringify(body).replace("KEY", campaignKey)),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 3 });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses an orderId sent as a JSON number past 2^53 instead of reading another number", async () => {
    const text = `{"campaignKey":"${campaignKey}","purchase":"p","orderId":9007199254740993,"authorized":true}`;
    const res = await server.rest("POST", "/v1/public/purchases:complete", text);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 3, message: expect.stringContaining("strings") });
  });

  it("accepts a JSON content type with parameters", async () => {
    const res = await server.rest(
      "POST",
      "/v1/public/funding:get",
      { campaignKey },
      {
        "content-type": "application/json; charset=utf-8",
      },
    );
    expect(res.status).toBe(200);
  });

  it("answers Connect JSON with every implicit field present, as REST does (spec 2.1)", async () => {
    const res = await fetch(`${server.baseUrl}/encore.campaign.v1.CampaignService/GetPublicFunding`, {
      method: "POST",
      headers: { "content-type": "application/json", "connect-protocol-version": "1" },
      body: JSON.stringify({ campaignKey }),
    });
    expect(await res.json()).toMatchObject({ funded: false, purchasable: true, unavailableReason: "" });
  });

  it("answers a request Node cannot parse with a Status body and no-store", async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, "127.0.0.1", () => {
        socket.write("POST /v1/public/funding:get HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n");
      });
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toMatch(/cache-control: no-store/i);
    expect(JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: 3 });
  });
});

describe("public calls when the database is not answering", () => {
  it.each([
    ["offers:list", { campaignKey: "any" }],
    ["purchases:begin", { campaignKey: "any", offerId: "o", authTicket: "00" }],
    ["purchases:complete", { campaignKey: "any", purchase: "p", orderId: "5", authorized: true }],
  ])("%s answers 503 code 14, which games retry (spec 4.5)", async (call, body) => {
    const server = await startTestServer();
    await server.db.database.close();
    try {
      const res = await server.rest("POST", `/v1/public/${call}`, body);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 14 });
    } finally {
      await server.close().catch(() => {});
    }
  });
});
