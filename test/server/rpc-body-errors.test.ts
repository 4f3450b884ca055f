import http2 from "node:http2";
import { gzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { GetPublicFundingRequestSchema } from "../../gen/encore/campaign/v1/public_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const PATH = "/encore.campaign.v1.CampaignService/GetPublicFunding";
// A field tag with no value after it: no protobuf parser accepts this.
const MALFORMED = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]);
const OVERSIZED = toBinary(
  GetPublicFundingRequestSchema,
  create(GetPublicFundingRequestSchema, { campaignKey: "k".repeat(70_000) }),
);
const BOMB = gzipSync(
  toBinary(
    GetPublicFundingRequestSchema,
    create(GetPublicFundingRequestSchema, { campaignKey: "k".repeat(1_000_000) }),
  ),
);

const envelope = (message: Uint8Array, flags = 0) => {
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
};

describe("a body the caller got wrong is INVALID_ARGUMENT on every RPC protocol", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const connectUnary = async (body: Uint8Array | string, headers: Record<string, string>) => {
    const res = await fetch(`${server.baseUrl}${PATH}`, { method: "POST", headers, body });
    return { status: res.status, body: (await res.json()) as { code: string; message: string } };
  };

  // gRPC needs HTTP/2; grpc-status is in the trailers, or the headers of a trailers-only reply.
  const grpcStatus = (body: Uint8Array, headers: Record<string, string> = {}) =>
    new Promise<string | undefined>((resolve, reject) => {
      const session = http2.connect(server.baseUrl);
      session.on("error", reject);
      const stream = session.request({
        ":method": "POST",
        ":path": PATH,
        "content-type": "application/grpc+proto",
        te: "trailers",
        ...headers,
      });
      // The reply may come before the server read the whole request: done at its trailers.
      const done = (status: unknown) => {
        session.destroy();
        resolve(status as string | undefined);
      };
      stream.on("response", (h) => {
        if (h["grpc-status"] !== undefined) done(h["grpc-status"]);
      });
      stream.on("trailers", (h) => done(h["grpc-status"]));
      stream.on("error", reject);
      stream.resume();
      stream.end(body);
    });

  const grpcWebStatus = async (body: Uint8Array, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.baseUrl}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", ...headers },
      body,
    });
    const text = Buffer.from(await res.arrayBuffer()).toString("latin1");
    return res.headers.get("grpc-status") ?? /grpc-status:\s*(\d+)/.exec(text)?.[1];
  };

  it("over Connect: a malformed binary body is 400 invalid_argument, not 500", async () => {
    const res = await connectUnary(MALFORMED, { "content-type": "application/proto" });
    expect(res).toEqual({
      status: 400,
      body: {
        code: "invalid_argument",
        message: "the request body is not a valid encore.campaign.v1.GetPublicFundingRequest",
      },
    });
    const json = await connectUnary("{", { "content-type": "application/json" });
    expect([json.status, json.body.code]).toEqual([400, "invalid_argument"]);
  });

  it("over Connect: a body over 64 KiB is 400 invalid_argument, binary or JSON, not 429", async () => {
    const binary = await connectUnary(OVERSIZED, { "content-type": "application/proto" });
    expect(binary).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: "the request body exceeds 65536 bytes" },
    });
    const json = await connectUnary(JSON.stringify({ campaignKey: "k".repeat(70_000) }), {
      "content-type": "application/json",
    });
    expect([json.status, json.body.code]).toEqual([400, "invalid_argument"]);
    const bomb = await connectUnary(BOMB, { "content-type": "application/proto", "content-encoding": "gzip" });
    expect(BOMB.length).toBeLessThan(64 * 1024);
    expect([bomb.status, bomb.body.code]).toEqual([400, "invalid_argument"]);
  });

  it("over gRPC: grpc-status 3 for a malformed, an oversized and a compressed-too-large message", async () => {
    expect(await grpcStatus(envelope(MALFORMED))).toBe("3");
    expect(await grpcStatus(envelope(OVERSIZED))).toBe("3");
    expect(await grpcStatus(envelope(BOMB, 1), { "grpc-encoding": "gzip" })).toBe("3");
  });

  it("over gRPC-web: grpc-status 3 for a malformed and an oversized message", async () => {
    expect(await grpcWebStatus(envelope(MALFORMED))).toBe("3");
    expect(await grpcWebStatus(envelope(OVERSIZED))).toBe("3");
  });

  it("through the generated clients on every protocol: an oversized request is INVALID_ARGUMENT", async () => {
    for (const protocol of ["connect", "grpc", "grpc-web"] as const) {
      const client = server.client(CampaignService, protocol);
      const outcome = await client.getPublicFunding({ campaignKey: "k".repeat(70_000) }).catch((e: unknown) => e);
      expect(outcome, protocol).toBeInstanceOf(ConnectError);
      expect(Code[(outcome as ConnectError).code], protocol).toBe("InvalidArgument");
    }
  });

  it("leaves other refusals alone: an unknown campaign is still not found", async () => {
    const ok = toBinary(GetPublicFundingRequestSchema, create(GetPublicFundingRequestSchema, { campaignKey: "nope" }));
    expect((await connectUnary(ok, { "content-type": "application/proto" })).status).toBe(404);
    expect(await grpcStatus(envelope(ok))).toBe("5");
  });
});
