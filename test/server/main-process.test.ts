import { type AddressInfo, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { H2_PREFACE, openRawClient } from "../support/raw-client.js";
import { migratedDataDir, startService, waitFor } from "../support/service-process.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { TEST_MASTER_KEY, TEST_OPERATOR_TOKEN } from "../support/test-server.js";

// Each case starts the built service on a copy of a migrated DATA_DIR unless it names one.
const start = startService;

describe("the service process", () => {
  it.each([
    ["PORT", { PORT: "http" }, /^invalid configuration: PORT /],
    [
      "ENCORE_MASTER_KEY",
      { DATABASE_URL: "postgresql://x@127.0.0.1/x", ENCORE_MASTER_KEY: "short", OPERATOR_TOKEN: "x".repeat(30) },
      /^invalid configuration: ENCORE_MASTER_KEY must be 32 bytes, base64/,
    ],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }, /^invalid configuration: LOG_LEVEL /],
    ["SHUTDOWN_TIMEOUT_MS", { SHUTDOWN_TIMEOUT_MS: "0" }, /^invalid configuration: SHUTDOWN_TIMEOUT_MS /],
    [
      "ENCORE_MASTER_KEY_PREVIOUS",
      { ENCORE_MASTER_KEY_PREVIOUS: "short" },
      /^invalid configuration: ENCORE_MASTER_KEY_PREVIOUS must be 32 bytes, base64$/,
    ],
    [
      "ENCORE_MASTER_KEY_PREVIOUS equal to the key",
      {
        ENCORE_MASTER_KEY: Buffer.alloc(32, 1).toString("base64"),
        ENCORE_MASTER_KEY_PREVIOUS: Buffer.alloc(32, 1).toString("base64"),
      },
      /^invalid configuration: ENCORE_MASTER_KEY_PREVIOUS must differ from ENCORE_MASTER_KEY$/,
    ],
  ])("refuses a bad %s at start with one clear line", async (_, env, line) => {
    const service = start(env);
    expect(await service.exited).toBe(1);
    const lines = service.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });

  it("refuses a METRICS_PORT already in use with one line naming it", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const service = start({ PORT: "0", METRICS_PORT: String(port) });
      expect(await service.exited).toBe(1);
      // One line of its own on stderr (start-up log lines, if any, are on stdout), no stack.
      expect(service.errors()).toBe(
        `start-up failed: METRICS_PORT ${port} on METRICS_HOST 127.0.0.1 is already in use; choose another port, or off\n`,
      );
      expect(service.output()).not.toMatch(/^\s+at /m);
      // Nothing claims success before it: the failure is the last line printed.
      expect(service.output()).not.toContain('"msg":"listening"');
      expect(service.output().trimEnd().split("\n").at(-1)).toMatch(/^start-up failed: METRICS_PORT /);
    } finally {
      taken.close();
    }
  }, 120_000);

  it("starts a second local service beside the first with no setting but PORT and DATA_DIR", async () => {
    // METRICS_PORT as `npm start` leaves it: unset (an empty variable counts as unset).
    const first = start({ PORT: "0", METRICS_PORT: "", LOG_LEVEL: "info" });
    const second = start({ PORT: "0", METRICS_PORT: "", LOG_LEVEL: "info" });
    try {
      const urls = await Promise.all([first.listening(), second.listening()]);
      for (const url of urls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
      // The embedded database is a local run: no metrics listener to contend for.
      for (const service of [first, second]) expect(service.output()).not.toContain('"msg":"metrics listening"');
    } finally {
      first.child.kill("SIGKILL");
      second.child.kill("SIGKILL");
    }
  }, 120_000);

  it("serves with the embedded database, is ready, and stops cleanly on SIGTERM", async () => {
    const service = start({ PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "info" });
    try {
      const url = await service.listening();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const res = await fetch(`${url}/v1/public/funding:get`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ campaignKey: "nope" }),
      });
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const metricsUrl = JSON.parse(
        service
          .output()
          .split("\n")
          .find((l) => l.includes('"msg":"metrics listening"')) ?? "{}",
      ).url;
      const scraped = await (await fetch(metricsUrl)).text();
      expect(scraped).toContain(
        'encore_rpc_requests_total{method="encore.campaign.v1.CampaignService/GetPublicFunding",code="not_found"} 1',
      );
      // Connections with nothing in flight do not hold the drain: one that never sent
      // a byte, one still in the protocol sniffer, an HTTP/2 session with no stream, and an idle
      // keep-alive connection.
      const port = Number(new URL(url).port);
      const silent = await openRawClient({ port });
      const sniffing = await openRawClient({ port });
      sniffing.socket.write("PRI * HTTP");
      const session = await openRawClient({ port });
      session.socket.write(H2_PREFACE);
      const keepAlive = await openRawClient({ port });
      keepAlive.socket.write("GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n");
      await keepAlive.waitFor("ok\n");
      service.child.kill("SIGTERM");
      expect(await service.exited).toBe(0);
      expect(service.output()).toContain('"msg":"stopped"');
      const outcomes = await Promise.all([silent, sniffing, session, keepAlive].map((c) => c.closedWithin(1_000)));
      expect(outcomes).toEqual(["closed", "closed", "closed", "closed"]);
    } finally {
      service.child.kill("SIGKILL");
    }
  }, 120_000);

  it("stops cleanly on SIGTERM when the tracing collector is unreachable: one warning, database closed, exit 0", async () => {
    // A port that was just free and is closed now: the exporter's flush is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port: closedPort } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const dataDir = migratedDataDir();
    const env = {
      PORT: "0",
      METRICS_PORT: "off",
      LOG_LEVEL: "info",
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closedPort}`,
      // The exporter retries a refused flush until this passes (10 s by default).
      OTEL_EXPORTER_OTLP_TIMEOUT: "1000",
    };
    const service = start(env);
    try {
      const url = await service.listening();
      // One call, so the exporter holds a span to flush at shutdown.
      const call = await fetch(`${url}/v1/public/funding:get`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ campaignKey: "nope" }),
      });
      expect(call.status).toBe(404);
      service.child.kill("SIGTERM");
      expect(await service.exited).toBe(0);
      const lines = service.output().trim().split("\n");
      expect(service.output()).not.toMatch(/^\s+at /m);
      expect(service.output()).not.toMatch(/unhandled/i);
      const warnings = lines.filter((l) => l.includes('"level":40'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0] ?? "{}")).toMatchObject({
        step: "tracing",
        error: expect.stringContaining("ECONNREFUSED"),
        msg: expect.stringMatching(/shutdown step failed/),
      });
      // "stopped" is logged after the database closed; the DATA_DIR lock is released with it, so
      // the next start on the same folder is not refused.
      expect(lines.at(-1)).toContain('"msg":"stopped"');
    } finally {
      service.child.kill("SIGKILL");
    }
    const { OTEL_EXPORTER_OTLP_ENDPOINT: _, OTEL_EXPORTER_OTLP_TIMEOUT: __, ...untraced } = env;
    const again = start(untraced);
    try {
      await again.listening();
      again.child.kill("SIGTERM");
      expect(await again.exited).toBe(0);
    } finally {
      again.child.kill("SIGKILL");
    }
  }, 120_000);
});

describe("the shutdown deadline", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  // On PostgreSQL when the tests have it (a quicker start than the embedded database).
  const databaseEnv = (): Record<string, string> =>
    db.target.kind === "postgres"
      ? {
          DATABASE_URL: db.target.url,
          ENCORE_MASTER_KEY: TEST_MASTER_KEY.toString("base64"),
          OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
        }
      : {};

  // The client below holds the drain this long, far from both deadlines (and from the default).
  const HELD_MS = 5_000;

  it.for<[string, string, number, string]>([
    ["exits 1 once SHUTDOWN_TIMEOUT_MS passed with a call still in flight", "500", 1, "shutdown deadline passed"],
    ["exits 0 when the calls in flight end within SHUTDOWN_TIMEOUT_MS", "120000", 0, '"msg":"stopped"'],
  ])("%s", { timeout: 120_000 }, async ([, shutdownTimeoutMs, code, logged]) => {
    const service = start({
      ...databaseEnv(),
      PORT: "0",
      METRICS_PORT: "off",
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_MS: shutdownTimeoutMs,
      // Only the shutdown deadline may end the call below.
      HTTP_SEND_TIMEOUT_MS: "600000",
    });
    try {
      const url = await service.listening();
      // A client that stops reading: 100 pipelined documents (about 28 MB) keep its calls in
      // flight, more than every buffer between it and the service holds.
      const reader = await openRawClient({ port: Number(new URL(url).port) });
      // It stops reading at the first bytes of the first answer: from then on the service is
      // answering, so SIGTERM cannot come before the calls are in flight (it did under load).
      const answering = new Promise<void>((resolve) =>
        reader.socket.once("data", () => {
          reader.socket.pause();
          resolve();
        }),
      );
      reader.socket.write("GET /openapi.json HTTP/1.1\r\nhost: x\r\n\r\n".repeat(100));
      await answering;
      service.child.kill("SIGTERM");
      await waitFor(() => service.output().includes('"msg":"shutting down'), "the drain");
      // Then it reads again, and the drain can end.
      const reading = setTimeout(() => reader.socket.resume(), HELD_MS);
      expect(await service.exited).toBe(code);
      clearTimeout(reading);
      expect(service.output()).toContain(logged);
      reader.destroy();
    } finally {
      service.child.kill("SIGKILL");
    }
  });
});
