import { once } from "node:events";
import * as http from "node:http";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import * as net from "node:net";
import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createClient,
  createContextKey,
  createContextValues,
  type Interceptor,
} from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Campaign_State, CampaignSchema } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { ErrorInfoSchema, PreconditionFailureSchema } from "../../gen/google/rpc/error_details_pb.js";
import { createRestHandler } from "../../src/transcode/create-rest-handler.js";

const kPeer = createContextKey<string | undefined>(undefined, { description: "peer" });
const seen: { rpc: string; auth: string | null; peer: string | undefined; call: string }[] = [];
const requests: Record<string, unknown> = {};

// The interceptor every protocol runs: it must see REST calls too, with their headers and peer.
const recorder: Interceptor = (next) => async (req) => {
  seen.push({
    rpc: req.method.name,
    auth: req.header.get("authorization"),
    peer: req.contextValues.get(kPeer),
    call: `${req.requestMethod} ${new URL(req.url).pathname}`,
  });
  if (req.header.get("authorization") === "Bearer deny") throw new ConnectError("who are you", Code.Unauthenticated);
  return next(req);
};

const routes = (router: ConnectRouter) =>
  router.service(CampaignService, {
    getPublicFunding(req, ctx) {
      requests.getPublicFunding = req;
      if (req.campaignKey === "unverified") {
        throw new ConnectError("The campaign is not verified.", Code.FailedPrecondition, undefined, [
          {
            desc: ErrorInfoSchema,
            value: {
              reason: "CAMPAIGN_NOT_VERIFIED",
              domain: "test.encore",
              metadata: { campaignKey: req.campaignKey },
            },
          },
          {
            desc: PreconditionFailureSchema,
            value: { violations: [{ type: "CAMPAIGN_NOT_VERIFIED", subject: req.campaignKey, description: "no" }] },
          },
        ]);
      }
      if (req.campaignKey === "crash") throw new Error("secret detail");
      ctx.responseHeader.set("x-impl", "yes");
      return { funded: true, visibility: FundingVisibility.RUNWAY, balance: { currencyCode: "USD", units: 12n } };
    },
    beginPurchase(req) {
      return { purchase: `p-${req.campaignKey}`, orderId: 9007199254740993n };
    },
    listCampaigns(req) {
      requests.listCampaigns = req;
      return { campaigns: [{ name: `${req.parent}/campaigns/c1` }], nextPageToken: `${req.pageToken}+${req.pageSize}` };
    },
    updateCampaign(req) {
      return create(CampaignSchema, {
        name: req.campaign?.name,
        displayName: `${req.campaign?.displayName}|${req.updateMask?.paths.join(",")}`,
      });
    },
    deleteCampaign(req) {
      requests.deleteCampaign = req;
      return {};
    },
    retryVerification(req) {
      return { name: req.name, state: Campaign_State.STATE_VERIFYING };
    },
  });

const interceptors = [recorder];

let server: http.Server;
let base: string;
let port: number;
let lastBytesRead = 0;

async function startServer() {
  const contextValues = (req: { socket: { remoteAddress?: string | undefined } }) =>
    createContextValues().set(kPeer, req.socket.remoteAddress);
  // The same routes, interceptors and context values for REST as for the adapter's protocols.
  const rest = createRestHandler({ routes, interceptors, contextValues, onInternalError: () => {} });
  const adapter = connectNodeAdapter({ routes, interceptors, contextValues, fallback: rest });
  server = http.createServer((req, res) => {
    res.on("finish", () => {
      lastBytesRead = req.socket.bytesRead;
    });
    adapter(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
}

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const init: RequestInit = {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
  };
  if (body !== undefined) init.body = body;
  const res = await fetch(base + path, init);
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

describe("REST over a real listener", () => {
  beforeAll(async () => {
    await startServer();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("POST JSON: canonical JSON back, optional absent, int64 as string", async () => {
    const res = await call("POST", "/v1/public/funding:get", JSON.stringify({ campaignKey: "k1" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-impl")).toBe("yes");
    expect(res.json).toEqual({
      funded: true,
      balance: { currencyCode: "USD", units: "12", nanos: 0 },
      visibility: "FUNDING_VISIBILITY_RUNWAY",
      purchasable: false,
      unavailableReason: "",
    });
    const begin = await call("POST", "/v1/public/purchases:begin", JSON.stringify({ campaignKey: "k1" }));
    expect(begin.json).toEqual({ purchase: "p-k1", orderId: "9007199254740993" });
  });

  it("ignores unknown request fields", async () => {
    const res = await call(
      "POST",
      "/v1/public/funding:get",
      JSON.stringify({ campaignKey: "k2", notAField: { deep: [1] } }),
    );
    expect(res.status).toBe(200);
    expect(requests.getPublicFunding).toMatchObject({ campaignKey: "k2" });
  });

  it.each([
    ["a wrong content type", "text/plain", '{"campaignKey":"k"}'],
    ["malformed JSON", "application/json", '{"campaignKey":'],
    ["a JSON array for body *", "application/json", "[]"],
  ])("answers %s with 400 code 3", async (_, contentType, body) => {
    const res = await call("POST", "/v1/public/funding:get", body, { "content-type": contentType });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 3, details: [] });
  });

  it("accepts a body of exactly 64 KiB and refuses 64 KiB + 1", async () => {
    const pad = (size: number) => {
      const head = '{"campaignKey":"k","pad":"';
      return `${head}${"x".repeat(size - head.length - 2)}"}`;
    };
    expect((await call("POST", "/v1/public/funding:get", pad(64 * 1024))).status).toBe(200);
    const res = await call("POST", "/v1/public/funding:get", pad(64 * 1024 + 1));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 3, message: "the request body exceeds 65536 bytes" });
  });

  it("refuses a streamed 10 MB body early, without reading it, and closes the connection", async () => {
    const total = 10 * 1024 * 1024;
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.on("error", () => {});
    let response = "";
    const answered = new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.on("data", (d: Buffer) => {
      response += d.toString();
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(
      "POST /v1/public/funding:get HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let written = 0;
    let done = false;
    void answered.then(() => {
      done = true;
    });
    while (written < total && !done && !socket.destroyed) {
      const ok = socket.write(
        Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]),
      );
      written += chunk.length;
      if (!ok) await Promise.race([once(socket, "drain"), answered, closed]);
    }
    await answered;
    expect(written).toBeLessThan(total);
    await closed;
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(response.toLowerCase()).toContain("connection: close");
    expect(response).toContain('"code":3');
    expect(lastBytesRead).toBeLessThan(1024 * 1024);
  });

  it("refuses a declared oversized Content-Length before reading anything", async () => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => {});
    let response = "";
    socket.on("data", (d: Buffer) => {
      response += d.toString();
    });
    socket.write(
      `POST /v1/public/funding:get HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{`,
    );
    await once(socket, "close");
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("answers an unknown route with 404 and a Status body", async () => {
    const res = await call("GET", "/v1/nothing/here");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 5, message: "no route for GET /v1/nothing/here", details: [] });
  });

  it("answers a known path with the wrong method with 501 code 12 and Allow", async () => {
    const res = await call("PUT", "/v1/accounts/a1/campaigns/c1");
    expect(res.status).toBe(501);
    expect(res.json).toMatchObject({ code: 12 });
    expect(res.headers.get("allow")).toBe("GET, PATCH, DELETE");
  });

  it("GET with query parameters", async () => {
    const res = await call(
      "GET",
      "/v1/accounts/a1/campaigns?page_size=5&pageToken=t1&filter=state%20%3D%20%22NEEDS_REVIEW%22",
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      campaigns: [{ name: "accounts/a1/campaigns/c1", verification: null }],
      nextPageToken: "t1+5",
    });
    expect(requests.listCampaigns).toMatchObject({ parent: "accounts/a1", filter: 'state = "NEEDS_REVIEW"' });
  });

  it("PATCH with the body field and update_mask in the query", async () => {
    const res = await call(
      "PATCH",
      "/v1/accounts/a1/campaigns/c1?update_mask=displayName",
      JSON.stringify({ displayName: "New" }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: "accounts/a1/campaigns/c1", displayName: "New|display_name" });
  });

  it("DELETE", async () => {
    const res = await call("DELETE", "/v1/accounts/a1/campaigns/c9?etag=e1");
    expect(res).toMatchObject({ status: 200, json: {} });
    expect(requests.deleteCampaign).toMatchObject({ name: "accounts/a1/campaigns/c9", etag: "e1" });
  });

  it("custom verb :retryVerification, with or without an empty body", async () => {
    const res = await call("POST", "/v1/accounts/a1/campaigns/c1:retryVerification", "{}");
    expect(res.json).toMatchObject({ name: "accounts/a1/campaigns/c1", state: "STATE_VERIFYING", transfer: null });
    expect((await call("POST", "/v1/accounts/a1/campaigns/c2:retryVerification")).status).toBe(200);
  });

  it("renders an implementation's error with ErrorInfo and PreconditionFailure", async () => {
    const res = await call("POST", "/v1/public/funding:get", JSON.stringify({ campaignKey: "unverified" }));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 9,
      message: "The campaign is not verified.",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "CAMPAIGN_NOT_VERIFIED",
          domain: "test.encore",
          metadata: { campaignKey: "unverified" },
        },
        {
          "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
          violations: [{ type: "CAMPAIGN_NOT_VERIFIED", subject: "unverified", description: "no" }],
        },
      ],
    });
  });

  it("never echoes an unexpected failure", async () => {
    const res = await call("POST", "/v1/public/funding:get", JSON.stringify({ campaignKey: "crash" }));
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.json)).not.toContain("secret");
    expect(res.json).toMatchObject({ code: 13 });
  });

  it("an unimplemented method is 501 code 12", async () => {
    expect(await call("GET", "/v1/accounts/a1/campaigns/c1")).toMatchObject({ status: 501, json: { code: 12 } });
  });

  it("runs the router's interceptors for REST, with headers, the socket peer and the client's method and path", async () => {
    seen.length = 0;
    await call("POST", "/v1/public/funding:get", "{}", { authorization: "Bearer abc" });
    expect(seen).toEqual([
      {
        rpc: "GetPublicFunding",
        auth: "Bearer abc",
        peer: "127.0.0.1",
        call: "POST /v1/public/funding:get",
      },
    ]);
    const denied = await call("POST", "/v1/public/funding:get", "{}", { authorization: "Bearer deny" });
    expect(denied).toMatchObject({ status: 401, json: { code: 16, message: "who are you" } });
  });

  it("still serves Connect on the same port, with the same interceptors", async () => {
    seen.length = 0;
    const client = createClient(CampaignService, createConnectTransport({ baseUrl: base, httpVersion: "1.1" }));
    const funding = await client.getPublicFunding({ campaignKey: "k3" }, { headers: { authorization: "Bearer c" } });
    expect(funding.funded).toBe(true);
    expect(seen).toMatchObject([
      {
        rpc: "GetPublicFunding",
        auth: "Bearer c",
        peer: "127.0.0.1",
        call: "POST /encore.campaign.v1.CampaignService/GetPublicFunding",
      },
    ]);
  });
});

describe("REST over HTTP/2 cleartext", () => {
  let h2server: http2.Http2Server;
  let session: http2.ClientHttp2Session;

  beforeAll(async () => {
    const rest = createRestHandler({ routes, interceptors, onInternalError: () => {} });
    h2server = http2.createServer(connectNodeAdapter({ routes, interceptors, fallback: rest }));
    h2server.listen(0, "127.0.0.1");
    await once(h2server, "listening");
    session = http2.connect(`http://127.0.0.1:${(h2server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    session.close();
    await new Promise((resolve) => h2server.close(resolve));
  });

  function h2call(path: string, body: Buffer | string, endStream = true) {
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/json" });
    stream.on("error", () => {});
    const chunks: Buffer[] = [];
    const response = new Promise<{ status: number; json: unknown }>((resolve) => {
      let status = 0;
      stream.on("response", (headers) => {
        status = Number(headers[":status"]);
      });
      stream.on("data", (d: Buffer) => chunks.push(d));
      stream.on("close", () => resolve({ status, json: JSON.parse(Buffer.concat(chunks).toString() || "null") }));
    });
    if (endStream) stream.end(body);
    else stream.write(body);
    return response;
  }

  it("serves a call", async () => {
    const res = await h2call("/v1/public/purchases:begin", '{"campaignKey":"h2"}');
    expect(res).toEqual({ status: 200, json: { purchase: "p-h2", orderId: "9007199254740993" } });
  });

  it("refuses an oversized body and resets only the stream", async () => {
    const res = await h2call("/v1/public/funding:get", Buffer.alloc(200 * 1024, 0x20), false);
    expect(res).toMatchObject({ status: 400, json: { code: 3 } });
    expect((await h2call("/v1/public/purchases:begin", '{"campaignKey":"again"}')).status).toBe(200);
  });
});
