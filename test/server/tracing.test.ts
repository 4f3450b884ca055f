import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { startTracedPurchaseFixture, type TracedPurchaseFixture } from "../purchase/purchase-fixture.js";
import { DOLLAR } from "../support/seed.js";
import { spansUnder } from "../support/traced.js";

describe("tracing (OpenTelemetry)", () => {
  let f: TracedPurchaseFixture;
  beforeAll(async () => {
    f = await startTracedPurchaseFixture();
  });
  afterAll(() => f.close());

  it("makes one public call one trace: the RPC span, with the database's and Steam's spans under it", async () => {
    const shop = await f.shop({ balanceNanos: 10n * DOLLAR });
    const player = await f.player(shop);
    f.exporter.reset();
    const res = await f.begin(
      { campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket },
      { "x-request-id": "trace-me-1" },
    );
    expect(res.status).toBe(200);

    const spans = f.exporter.getFinishedSpans();
    const rpc = spans.find((span) => span.name === "encore.campaign.v1.CampaignService/BeginPurchase");
    expect(rpc?.attributes).toMatchObject({
      "rpc.method": "BeginPurchase",
      "encore.request_id": "trace-me-1",
      "rpc.connect_rpc.error_code": "Ok",
    });
    if (!rpc) return;
    const descendants = spansUnder(spans, rpc);
    const names = new Set(descendants.map((span) => span.name));
    expect(names).toContain("steam AuthenticateUserTicket");
    expect(names).toContain("steam InitTxn");
    expect(names).toContain("prisma:client:db_query");
    const initTxn = descendants.find((span) => span.name === "steam InitTxn");
    expect(initTxn?.attributes["encore.platform.outcome"]).toBe("ok");
    for (const span of descendants) expect(span.spanContext().traceId).toBe(rpc.spanContext().traceId);
  });

  it("continues the caller's trace from a W3C traceparent header", async () => {
    f.exporter.reset();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await f.server.rest(
      "POST",
      "/v1/public/funding:get",
      { campaignKey: "nope" },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    expect(res.status).toBe(404);
    const rpc = f.exporter.getFinishedSpans().find((span) => span.name.endsWith("/GetPublicFunding"));
    expect(rpc?.spanContext().traceId).toBe(traceId);
    expect(rpc?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(rpc?.attributes["rpc.connect_rpc.error_code"]).toBe("NotFound");
  });
});

describe("tracing configuration", () => {
  it("is off unless OTEL_EXPORTER_OTLP_ENDPOINT names a collector", () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).tracing).toEqual({
      endpoint: "http://collector:4318",
      serviceName: "encore-campaigns",
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector" })).toThrow(
      /^invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT /,
    );
  });
});
