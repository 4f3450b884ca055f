import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { refusal } from "../support/refusal.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

describe("OperatorService: settings", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const operator = () => server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);

  it("starts with no default limit and no origins", async () => {
    const settings = await operator().getSettings({});
    expect(settings).toMatchObject({ name: "settings", allowedOrigins: [] });
    expect(settings.defaultOutstandingLimit).toMatchObject({ currencyCode: "USD", units: 0n, nanos: 0 });
  });

  it("updates only the fields the mask names", async () => {
    const limit = { currencyCode: "USD", units: 500n, nanos: 0 };
    const updated = await operator().updateSettings({
      settings: { defaultOutstandingLimit: limit, allowedOrigins: ["https://ignored.example"] },
      updateMask: { paths: ["default_outstanding_limit"] },
    });
    expect(updated.defaultOutstandingLimit).toMatchObject(limit);
    expect(updated.allowedOrigins).toEqual([]);

    const origins = await operator().updateSettings({
      settings: { allowedOrigins: ["https://game.example", "http://localhost:5173", "https://game.example"] },
      updateMask: { paths: ["allowed_origins"] },
    });
    expect(origins.allowedOrigins).toEqual(["https://game.example", "http://localhost:5173"]);
    expect(origins.defaultOutstandingLimit).toMatchObject(limit);
    expect(await operator().getSettings({})).toMatchObject({ allowedOrigins: origins.allowedOrigins });

    const cleared = await operator().updateSettings({ settings: {}, updateMask: { paths: ["allowed_origins"] } });
    expect(cleared.allowedOrigins).toEqual([]);
  });

  it("without a mask updates the populated fields", async () => {
    const updated = await operator().updateSettings({ settings: { allowedOrigins: ["https://a.example"] } });
    expect(updated.allowedOrigins).toEqual(["https://a.example"]);
    expect(updated.defaultOutstandingLimit?.units).toBe(500n);
  });

  it("updates over REST with a camelCase updateMask", async () => {
    const res = await server.rest(
      "PATCH",
      "/v1/operator/settings?updateMask=defaultOutstandingLimit",
      { defaultOutstandingLimit: { currencyCode: "USD", units: "75", nanos: 250000000 } },
      { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "settings",
      defaultOutstandingLimit: { currencyCode: "USD", units: "75", nanos: 250000000 },
    });
  });

  it.each([
    "https://game.example/",
    "https://game.example/path",
    "https://Game.example",
    "https://game.example:443",
    "ftp://game.example",
    "game.example",
    "*",
    "https://game.example?x=1",
    "https://user@game.example",
  ])("refuses the origin %s with INVALID_ARGUMENT", async (origin) => {
    const res = await refusal(
      operator().updateSettings({ settings: { allowedOrigins: [origin] }, updateMask: { paths: ["allowed_origins"] } }),
    );
    expect(res.code).toBe(Code.InvalidArgument);
  });

  it.each([
    [
      "a negative default limit",
      { defaultOutstandingLimit: { currencyCode: "USD", units: -1n, nanos: 0 } },
      ["default_outstanding_limit"],
    ],
    ["an unknown mask path", {}, ["name"]],
  ])("refuses %s with INVALID_ARGUMENT", async (_, settings, paths) => {
    expect(await refusal(operator().updateSettings({ settings, updateMask: { paths } }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });
});
