import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR, seedCampaign } from "../support/seed.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const run = promisify(execFile);

// Clients that are not connect-es's own, so the service is never only tested against itself.
describe("gRPC clients of other makers", () => {
  let server: TestServer;
  let campaignKey: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ campaignKey } = await seedCampaign(server.db.database.prisma, {
      visibility: "EXACT_BALANCE",
      balanceNanos: 12n * DOLLAR + 340_000_000n,
    }));
  });
  afterAll(() => server.close());

  it("@grpc/grpc-js reads funding over HTTP/2 cleartext, and gets NOT_FOUND for an unknown key", async () => {
    const definition = await protoLoader.load("encore/campaign/v1/campaign_service.proto", {
      includeDirs: [root("proto"), root("third_party/googleapis")],
      keepCase: true,
      longs: String,
      enums: String,
      defaults: true,
    });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      encore: { campaign: { v1: { CampaignService: grpc.ServiceClientConstructor } } };
    };
    const client = new loaded.encore.campaign.v1.CampaignService(
      `127.0.0.1:${server.port}`,
      grpc.credentials.createInsecure(),
    );
    type Unary = (request: object, done: (error: grpc.ServiceError | null, response: object) => void) => void;
    const getPublicFunding = (client.GetPublicFunding as Unary).bind(client);
    const call = (request: object) =>
      new Promise<object>((resolve, reject) =>
        getPublicFunding(request, (error, response) => (error ? reject(error) : resolve(response))),
      );
    try {
      const funding = await call({ campaign_key: campaignKey });
      expect(funding).toMatchObject({
        funded: true,
        balance: { currency_code: "USD", units: "12", nanos: 340_000_000 },
        visibility: "FUNDING_VISIBILITY_EXACT_BALANCE",
        purchasable: true,
      });
      await expect(call({ campaign_key: "nope" })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    } finally {
      client.close();
    }
  });

  it("buf curl gets the same answer over gRPC, gRPC-web and Connect", async () => {
    const url = `http://127.0.0.1:${server.port}/encore.campaign.v1.CampaignService/GetPublicFunding`;
    const data = JSON.stringify({ campaignKey });
    for (const protocol of [
      ["--protocol", "grpc", "--http2-prior-knowledge"],
      ["--protocol", "grpcweb"],
      ["--protocol", "connect"],
    ]) {
      const { stdout } = await run(
        root("node_modules/.bin/buf"),
        ["curl", "--schema", root("proto"), ...protocol, "-d", data, url],
        {
          cwd: root("."),
        },
      );
      expect(JSON.parse(stdout)).toMatchObject({ funded: true, balance: { currencyCode: "USD", units: "12" } });
    }
    const missing = await run(
      root("node_modules/.bin/buf"),
      [
        "curl",
        "--schema",
        root("proto"),
        "--protocol",
        "grpc",
        "--http2-prior-knowledge",
        "-d",
        '{"campaignKey":"nope"}',
        url,
      ],
      { cwd: root(".") },
    ).catch((error: { stderr: string }) => error);
    expect(JSON.parse((missing as { stderr: string }).stderr)).toMatchObject({ code: "not_found" });
  });
});
