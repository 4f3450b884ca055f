import { fileURLToPath } from "node:url";
import { Code, ConnectError } from "@connectrpc/connect";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const everyService = [
  "",
  "encore.campaign.v1.CampaignService",
  "encore.account.v1.AccountService",
  "encore.operator.v1.OperatorService",
  "encore.hosting.v1.HostingService",
  "encore.billing.v1.BillingService",
  "google.longrunning.Operations",
  "encore.audit.v1.AuditService",
  "encore.operator.v1.OperatorAuditService",
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
];

async function grpcHealthClient(port: number) {
  const definition = await protoLoader.load("grpc/health/v1/health.proto", {
    includeDirs: [root("third_party/grpc-proto")],
    enums: String,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
  };
  return new pkg.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

function check(client: grpc.Client, service: string): Promise<string> {
  return new Promise((resolve, reject) =>
    (
      client as unknown as Record<string, (r: object, cb: (e: Error | null, r: { status: string }) => void) => void>
    ).Check?.call(client, { service }, (error, response) => (error ? reject(error) : resolve(response.status))),
  );
}

describe("grpc.health.v1.Health, tied to /readyz", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("Check over gRPC (@grpc/grpc-js) answers SERVING for the server and every service, NOT_FOUND for others", async () => {
    const client = await grpcHealthClient(server.port);
    try {
      for (const service of everyService) expect(await check(client, service)).toBe("SERVING");
      await expect(check(client, "encore.campaign.v1.Nope")).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    } finally {
      client.close();
    }
  });

  it.each(["connect", "grpc-web", "grpc"] as const)("Check and List over %s, with no credential", async (protocol) => {
    const health = server.client(Health, protocol);
    expect((await health.check({ service: "encore.campaign.v1.CampaignService" })).status).toBe(Status.SERVING);
    const error = await health.check({ service: "nope" }).catch((e: unknown) => e);
    expect(ConnectError.from(error).code).toBe(Code.NotFound);
    const { statuses } = await health.list({});
    expect(Object.keys(statuses).sort()).toEqual(expect.arrayContaining(everyService));
    expect(Object.values(statuses).every((s) => s.status === Status.SERVING)).toBe(true);
  });

  it("Watch of an unknown service answers SERVICE_UNKNOWN and stays open", async () => {
    const controller = new AbortController();
    const stream = server.client(Health, "grpc").watch({ service: "nope" }, { signal: controller.signal });
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.value?.status).toBe(Status.SERVICE_UNKNOWN);
    controller.abort();
  });
});

describe("health when readiness is lost", () => {
  it("NOT_SERVING on Check, /readyz 503 and a Watch update once the database is gone", async () => {
    const server = await startTestServer({ healthWatchIntervalMs: 50 });
    try {
      const health = server.client(Health, "grpc");
      const watch = health.watch({ service: "" })[Symbol.asyncIterator]();
      expect((await watch.next()).value?.status).toBe(Status.SERVING);
      await server.db.database.close();
      expect((await watch.next()).value?.status).toBe(Status.NOT_SERVING);
      expect((await health.check({ service: "" })).status).toBe(Status.NOT_SERVING);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);
    } finally {
      await server.close();
    }
  });

  it("shutdown: Watch streams get NOT_SERVING and end, so the listener drains", async () => {
    const server = await startTestServer();
    const watch = server.client(Health, "grpc").watch({ service: "encore.campaign.v1.CampaignService" });
    const seen: Status[] = [];
    const done = (async () => {
      for await (const response of watch) seen.push(response.status);
    })();
    await expect.poll(() => seen.length).toBe(1);
    await server.close();
    await done;
    expect(seen).toEqual([Status.SERVING, Status.NOT_SERVING]);
  });
});
