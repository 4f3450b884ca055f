import http2 from "node:http2";
import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ConnectionPolicy } from "../../src/server/connection-guard.js";
import { createListener, type Listener } from "../../src/server/listener.js";
import { selfSignedCertificate } from "../support/certificate.js";
import { H2_PREFACE, openRawClient, type RawClient } from "../support/raw-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Small timeouts so the test is quick; every slow client below would otherwise stay for good.
const TIMEOUTS = {
  HTTP_HEADERS_TIMEOUT_MS: "400",
  HTTP_REQUEST_TIMEOUT_MS: "600",
  HTTP_KEEP_ALIVE_TIMEOUT_MS: "400",
  HTTP2_IDLE_TIMEOUT_MS: "400",
  HTTP_SEND_TIMEOUT_MS: "400",
};
// Far longer than any timeout above: a connection still open by then was never timed out.
const WELL_PAST = 5_000;
const HEALTH = "GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n";
const SLOW_HEADERS = `POST /v1/public/funding:get HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nx-pad: ${"a".repeat(200)}\r\n\r\n`;
// About 280 KB each: 200 of them pipelined (56 MB) fill every buffer between the service and a
// client that does not read, kernel buffers included.
const OPENAPI = "GET /openapi.json HTTP/1.1\r\nhost: x\r\n\r\n";
const SLOW_BODY_HEAD =
  "POST /v1/public/funding:get HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n";

describe("slow and idle clients", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: TIMEOUTS });
  });
  afterAll(() => server.close());

  it("closes silent, one-byte, slow-header, slow-body, preface-only and idle connections while serving others", async () => {
    const port = server.port;
    const silent = await openRawClient({ port });
    const oneByteH1 = await openRawClient({ port });
    oneByteH1.socket.write("G");
    // "P" could still start the HTTP/2 preface: this one waits in the protocol sniffer.
    const oneByteSniffing = await openRawClient({ port });
    oneByteSniffing.socket.write("P");
    const slowHeaders = await openRawClient({ port });
    slowHeaders.dribble(SLOW_HEADERS, 50);
    const slowBody = await openRawClient({ port });
    slowBody.socket.write(SLOW_BODY_HEAD);
    slowBody.dribble("x".repeat(500), 50);
    const prefaceOnly = await openRawClient({ port });
    prefaceOnly.socket.write(H2_PREFACE);
    const keepAlive = await openRawClient({ port });
    keepAlive.socket.write(HEALTH);
    expect(await keepAlive.waitFor("ok\n")).toMatch(/^HTTP\/1\.1 200/);

    // A normal client is served meanwhile, over REST and gRPC.
    const rest = await server.rest("POST", "/v1/public/funding:get", { campaignKey: "nope" });
    expect(rest.status).toBe(404);
    const grpc = server.client(CampaignService, "grpc");
    await expect(grpc.getPublicFunding({ campaignKey: "nope" })).rejects.toSatisfy(
      (error) => error instanceof ConnectError && error.code === Code.NotFound,
    );

    const clients: Record<string, RawClient> = {
      silent,
      oneByteH1,
      oneByteSniffing,
      slowHeaders,
      slowBody,
      prefaceOnly,
      keepAlive,
    };
    const outcomes = await Promise.all(
      Object.entries(clients).map(async ([name, client]) => [name, await client.closedWithin(WELL_PAST)]),
    );
    expect(Object.fromEntries(outcomes)).toEqual(Object.fromEntries(Object.keys(clients).map((n) => [n, "closed"])));
    // The slow body was cut off: no answer was ever made up for half a request.
    expect(slowBody.received()).toBe("");
    expect((await server.rest("POST", "/v1/public/funding:get", { campaignKey: "nope" })).status).toBe(404);
  });

  it("serves a client slow within every timeout: no deadline is kept early", async () => {
    const port = server.port;
    const lateHeaders = await openRawClient({ port });
    const idleBetween = await openRawClient({ port });
    idleBetween.socket.write(HEALTH);
    await idleBetween.waitFor("ok\n");
    const lateBody = await openRawClient({ port });
    lateBody.socket.write(SLOW_BODY_HEAD);
    // Not reading, so its responses back up in the service: nothing of them moves a while.
    const pausedReader = await openRawClient({ port });
    pausedReader.socket.pause();
    pausedReader.socket.write(OPENAPI.repeat(100));

    // 70 % of the headers, keep-alive and send timeouts (400 ms), then of the request's (600 ms).
    await sleep(280);
    lateHeaders.socket.write(HEALTH);
    idleBetween.socket.write(HEALTH);
    pausedReader.socket.resume();
    await sleep(140);
    lateBody.socket.write(JSON.stringify({ campaignKey: "nope" }).padEnd(500));

    expect(await answered(lateHeaders, 1)).toBe(1);
    expect(await answered(idleBetween, 2)).toBe(2);
    expect(await lateBody.waitFor("}")).toMatch(/^HTTP\/1\.1 404/);
    expect(await answered(pausedReader, 100)).toBe(100);
    for (const client of [lateHeaders, idleBetween, lateBody, pausedReader]) client.destroy();
  });

  it("does not count a stall of the service itself against its clients", async () => {
    const port = server.port;
    const idleBetween = await openRawClient({ port });
    idleBetween.socket.write(HEALTH);
    await idleBetween.waitFor("ok\n");
    const pausedReader = await openRawClient({ port });
    pausedReader.socket.pause();
    pausedReader.socket.write(OPENAPI.repeat(100));

    // Each asks again, or reads again, well within its timeout (400 ms: under a loaded machine's
    // delays the test itself may take a further 100 to 200 ms to get here, and 70 % of the
    // timeout once left too little for them)...
    await sleep(100);
    idleBetween.socket.write(HEALTH);
    pausedReader.socket.resume();
    // ...just as the service's thread stops for longer than any timeout (a long collection, a
    // starved core): what they sent waits in the kernel, and the next sweep runs before it is read.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);

    expect(await answered(idleBetween, 2)).toBe(2);
    expect(await answered(pausedReader, 100)).toBe(100);
    for (const client of [idleBetween, pausedReader]) client.destroy();
  });

  it("drops responses a client stopped reading, pipelined over HTTP/1.1 and on an HTTP/2 stream, while serving others", async () => {
    const pipelined = await openRawClient({ port: server.port });
    pipelined.socket.pause();
    pipelined.socket.write(OPENAPI.repeat(200));
    // A client that does not read learns of a close from the reset its next write gets back
    // (empty lines between requests are allowed, RFC 9112 2.2).
    pipelined.dribble("\r\n".repeat(1000), 50);

    const session = http2.connect(server.baseUrl);
    session.on("error", () => {});
    const sessionClosed = new Promise<void>((resolve) => session.once("close", () => resolve()));
    const stream = session.request({ ":path": "/openapi.json" });
    stream.on("error", () => {});
    // Paused, the stream gives the service no flow-control window past its first 64 KiB.
    stream.pause();
    const streamClosed = new Promise<number>((resolve) => stream.once("close", () => resolve(stream.rstCode ?? -1)));

    // A normal client is served meanwhile, over REST and gRPC.
    expect((await server.rest("POST", "/v1/public/funding:get", { campaignKey: "nope" })).status).toBe(404);
    const grpc = server.client(CampaignService, "grpc");
    await expect(grpc.getPublicFunding({ campaignKey: "nope" })).rejects.toSatisfy(
      (error) => error instanceof ConnectError && error.code === Code.NotFound,
    );

    expect(await pipelined.closedWithin(WELL_PAST)).toBe("closed");
    expect(await streamClosed).toBe(http2.constants.NGHTTP2_CANCEL);
    // With its only stream gone the session is idle, and closed as such.
    await sessionClosed;
    const openapi = await fetch(`${server.baseUrl}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect((await openapi.text()).length).toBeGreaterThan(100_000);
  });

  it("resets an HTTP/2 stream whose body is too slow, then closes the idle session with a GOAWAY", async () => {
    const session = http2.connect(server.baseUrl);
    session.on("error", () => {});
    const goaway = new Promise<void>((resolve) => session.once("goaway", () => resolve()));
    const sessionClosed = new Promise<void>((resolve) => session.once("close", () => resolve()));
    const stream = session.request({
      ":method": "POST",
      ":path": "/v1/public/funding:get",
      "content-type": "application/json",
    });
    stream.on("error", () => {});
    stream.resume();
    stream.write("{");
    const streamClosed = new Promise<number>((resolve) => stream.once("close", () => resolve(stream.rstCode ?? -1)));
    expect(await streamClosed).toBe(http2.constants.NGHTTP2_CANCEL);
    await goaway;
    await sessionClosed;
  });

  it("closes an HTTP/2 session idle after its calls", async () => {
    const session = http2.connect(server.baseUrl);
    session.on("error", () => {});
    const sessionClosed = new Promise<"closed">((resolve) => session.once("close", () => resolve("closed")));
    const stream = session.request({ ":path": "/healthz" });
    stream.resume();
    await new Promise((resolve) => stream.once("end", resolve));
    const outcome = await Promise.race([sessionClosed, new Promise((r) => setTimeout(() => r("open"), WELL_PAST))]);
    if (outcome !== "closed") session.destroy();
    expect(outcome).toBe("closed");
  });

  it("closes an HTTP/2 session with no stream even while its client keeps pinging", async () => {
    const session = http2.connect(server.baseUrl);
    session.on("error", () => {});
    // Pinging a destroyed session throws: a tick may come after the service ended it, before the
    // await below ends the interval.
    const pinging = setInterval(() => session.destroyed || session.ping(() => {}), 50);
    const sessionClosed = new Promise<"closed">((resolve) => session.once("close", () => resolve("closed")));
    const outcome = await Promise.race([sessionClosed, new Promise((r) => setTimeout(() => r("open"), WELL_PAST))]);
    clearInterval(pinging);
    if (outcome !== "closed") session.destroy();
    expect(outcome).toBe("closed");
  });
});

describe("connection caps", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { MAX_CONNECTIONS: "5", MAX_CONNECTIONS_PER_ADDRESS: "3" } });
  });
  afterAll(() => server.close());

  const open = (localAddress: string) => openRawClient({ port: server.port, localAddress });

  it("refuses connections over the per-address and the total cap while the admitted ones are served", async () => {
    const first = await Promise.all([open("127.0.0.1"), open("127.0.0.1"), open("127.0.0.1")]);
    const fourth = await open("127.0.0.1");
    expect(await fourth.closedWithin(WELL_PAST)).toBe("closed");
    expect(fourth.received()).toBe("");

    // Another address is still served, and fills the listener to its total cap.
    const other = await Promise.all([open("127.0.0.2"), open("127.0.0.2")]);
    const third = await open("127.0.0.3");
    expect(await third.closedWithin(WELL_PAST)).toBe("closed");

    // Every admitted connection is served meanwhile.
    for (const client of [...first, ...other]) {
      client.socket.write(HEALTH);
      expect(await client.waitFor("ok\n")).toMatch(/^HTTP\/1\.1 200/);
    }

    // A connection that closes frees its place.
    first[0]?.destroy();
    let served = "";
    for (let attempt = 0; attempt < 50 && !served.includes("ok\n"); attempt++) {
      const again = await open("127.0.0.3");
      again.socket.write(HEALTH);
      served = await Promise.race([again.waitFor("ok\n"), again.closedWithin(WELL_PAST).then(() => again.received())]);
      again.destroy();
    }
    expect(served).toMatch(/^HTTP\/1\.1 200/);
    for (const client of [...first, ...other]) client.destroy();
  });
});

describe("slow clients over TLS", () => {
  const policy: ConnectionPolicy = {
    headersTimeoutMs: 400,
    requestTimeoutMs: 600,
    keepAliveTimeoutMs: 400,
    http2IdleTimeoutMs: 400,
    sendTimeoutMs: 400,
    maxConnections: 100,
    maxConnectionsPerAddress: 100,
  };
  const big = Buffer.alloc(280_000, "x");
  // Requests for /slow wait here until the test lets them go: a handler slower than every timeout.
  let slowArrived = () => {};
  let answerSlow = () => {};
  const slowGate = new Promise<void>((resolve) => {
    answerSlow = resolve;
  });
  let listener: Listener;
  let port: number;
  beforeAll(async () => {
    listener = createListener({
      // Answers once the whole request has arrived, as the service does: /big with 280 KB.
      handler: (req, res) => {
        req.resume();
        req.once("end", async () => {
          if (req.url === "/slow") {
            slowArrived();
            await slowGate;
          }
          res.writeHead(200, { "content-type": "text/plain" });
          res.end(req.url === "/big" ? big : "ok\n");
        });
      },
      tls: selfSignedCertificate(),
      connections: policy,
    });
    port = (await listener.listen(0, "127.0.0.1")).port;
  });
  afterAll(() => listener.close());

  it("closes a connection silent before or after the handshake, slow headers, and an idle HTTP/2 session", async () => {
    const noHandshake = await openRawClient({ port });
    const silentH1 = await openRawClient({ port, tls: { alpn: ["http/1.1"] } });
    const slowHeaders = await openRawClient({ port, tls: { alpn: ["http/1.1"] } });
    slowHeaders.dribble(SLOW_HEADERS, 50);
    const prefaceOnly = await openRawClient({ port, tls: { alpn: ["h2"] } });
    prefaceOnly.socket.write(H2_PREFACE);
    const keepAlive = await openRawClient({ port, tls: { alpn: ["http/1.1"] } });
    keepAlive.socket.write(HEALTH);
    expect(await keepAlive.waitFor("ok\n")).toMatch(/^HTTP\/1\.1 200/);

    const served = await openRawClient({ port, tls: { alpn: ["http/1.1"] } });
    served.socket.write(HEALTH);
    expect(await served.waitFor("ok\n")).toMatch(/^HTTP\/1\.1 200/);

    const clients = { noHandshake, silentH1, slowHeaders, prefaceOnly, keepAlive, served };
    const outcomes = await Promise.all(
      Object.entries(clients).map(async ([name, client]) => [name, await client.closedWithin(WELL_PAST)]),
    );
    expect(Object.fromEntries(outcomes)).toEqual(Object.fromEntries(Object.keys(clients).map((n) => [n, "closed"])));
  });

  it("drops responses an HTTPS client stopped reading, and leaves a handler slower than the timeout alone", async () => {
    let arrivals = 0;
    const bothSlowArrived = new Promise<void>((resolve) => {
      slowArrived = () => {
        arrivals += 1;
        if (arrivals === 2) resolve();
      };
    });
    const slowH1 = await openRawClient({ port, tls: { alpn: ["http/1.1"] } });
    slowH1.socket.write("GET /slow HTTP/1.1\r\nhost: x\r\n\r\n");
    const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on("error", () => {});
    const slowH2 = session.request({ ":path": "/slow" });
    slowH2.setEncoding("utf8");
    let slowH2Body = "";
    slowH2.on("data", (chunk: string) => {
      slowH2Body += chunk;
    });
    const slowH2Ended = new Promise((resolve) => slowH2.once("end", resolve));
    await bothSlowArrived;

    const pipelined = await openRawClient({ port, tls: { alpn: ["http/1.1"] } });
    pipelined.socket.pause();
    pipelined.socket.write("GET /big HTTP/1.1\r\nhost: x\r\n\r\n".repeat(200));
    pipelined.dribble("\r\n".repeat(1000), 50);
    const unread = session.request({ ":path": "/big" });
    unread.on("error", () => {});
    unread.pause();
    const unreadClosed = new Promise<number>((resolve) => unread.once("close", () => resolve(unread.rstCode ?? -1)));
    expect(await pipelined.closedWithin(WELL_PAST)).toBe("closed");
    expect(await unreadClosed).toBe(http2.constants.NGHTTP2_CANCEL);

    // Both slow requests waited longer than the send timeout with nothing to send: still served.
    answerSlow();
    expect(await slowH1.waitFor("ok\n")).toMatch(/^HTTP\/1\.1 200[\s\S]*ok\n/);
    await slowH2Ended;
    expect(slowH2Body).toBe("ok\n");
    session.destroy();
  });

  it("answers a CONNECT request over TLS with a 400 Status", async () => {
    const client = await openRawClient({ port, tls: { alpn: ["http/1.1"] } });
    client.socket.write("CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n");
    expect(await client.closedWithin(WELL_PAST)).toBe("closed");
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":3/);
  });

  it("resets a slow HTTP/2 request body over TLS", async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on("error", () => {});
    const stream = session.request({ ":method": "POST", ":path": "/" });
    stream.on("error", () => {});
    stream.resume();
    stream.write("{");
    const rstCode = await new Promise<number>((resolve) => stream.once("close", () => resolve(stream.rstCode ?? -1)));
    expect(rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
    session.destroy();
  });
});

/** How many 200 answers the client has, once it has `wanted` or a few seconds passed. */
async function answered(client: RawClient, wanted: number): Promise<number> {
  const count = () => client.received().split("HTTP/1.1 200 ").length - 1;
  for (let i = 0; i < 200 && count() < wanted && !client.socket.destroyed; i++) await sleep(25);
  return count();
}

describe("an idle connection between calls", () => {
  // A send timeout far shorter than the keep-alive one: it ends with the call's response.
  const policy: ConnectionPolicy = {
    headersTimeoutMs: 2_000,
    requestTimeoutMs: 2_000,
    keepAliveTimeoutMs: 2_000,
    http2IdleTimeoutMs: 2_000,
    sendTimeoutMs: 300,
    maxConnections: 100,
    maxConnectionsPerAddress: 100,
  };

  it.each([
    ["cleartext", undefined],
    ["TLS", selfSignedCertificate()],
  ])("is kept for the keep-alive timeout, not the send timeout, over %s", async (_, tls) => {
    const listener = createListener({ handler: (_req, res) => res.end("ok\n"), tls, connections: policy });
    try {
      const { port } = await listener.listen(0, "127.0.0.1");
      const client = await openRawClient({ port, ...(tls ? { tls: { alpn: ["http/1.1"] } } : {}) });
      client.socket.write(HEALTH);
      expect(await answered(client, 1)).toBe(1);
      await sleep(900);
      client.socket.write(HEALTH);
      expect(await answered(client, 2)).toBe(2);
      client.destroy();
    } finally {
      await listener.close();
    }
  });
});
