import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../support/certificate.js";
import { proxyHeaderV1, proxyHeaderV2 } from "../support/proxy-header.js";
import { openRawClient } from "../support/raw-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// docs/deploy.md "Replicas": behind a proxy every player's connection comes from the proxy, and
// spec 8 limits per client address. A proxy named in PROXY_PROTOCOL_FROM (here 127.0.0.2) opens
// each connection with a PROXY protocol header naming the client; nobody else's header is read.
const PROXY = "127.0.0.2";
const STRANGER = "127.0.0.3";
const FUNDING = "/v1/public/funding:get";
// An unknown campaign key: 404, counted against the client's limit like any public call.
const BODY = JSON.stringify({ campaignKey: "no-such-campaign" });

/** A connection as the proxy opens it: from its address, the header first. */
function fromProxy(port: number, header: string | Buffer, localAddress = PROXY): net.Socket {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  socket.write(header);
  return socket;
}

/** funding:get over HTTP/1.1 on a connection of `connect`'s making; resolves to the status. */
function fundingGet(url: string, connect: () => Duplex): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith("https:") ? https.request : http.request;
    const req = request(`${url}${FUNDING}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      createConnection: connect as () => net.Socket,
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(BODY);
  });
}

describe("clients behind a proxy that sends the PROXY protocol (cleartext)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { PROXY_PROTOCOL_FROM: `${PROXY},10.9.0.0/16`, RATE_LIMIT_PER_ADDRESS: "2", HTTP_HEADERS_TIMEOUT_MS: "500" },
    });
  });
  afterAll(() => server.close());

  it("limits each client the proxy names, not the proxy, whichever header version", async () => {
    const { baseUrl, port } = server;
    const as = (header: string | Buffer) => fundingGet(baseUrl, () => fromProxy(port, header));
    expect(await as(proxyHeaderV1("198.51.100.1"))).toBe(404);
    expect(await as(proxyHeaderV2("198.51.100.1"))).toBe(404);
    expect(await as(proxyHeaderV2("198.51.100.1"))).toBe(429);
    // Other players behind the same proxy keep their own allowance.
    expect(await as(proxyHeaderV2("198.51.100.2"))).toBe(404);
    expect(await as(proxyHeaderV1("2001:db8::5"))).toBe(404);
    // The proxy's own connections (its health checks) are its own address's.
    expect(await as(proxyHeaderV2("local"))).toBe(404);
    expect(await as(proxyHeaderV2("local"))).toBe(404);
    expect(await as(proxyHeaderV2("local"))).toBe(429);
  });

  it("serves HTTP/2 with prior knowledge after the header, counted against the client", async () => {
    const session = http2.connect(server.baseUrl, {
      createConnection: () => fromProxy(server.port, proxyHeaderV2("198.51.100.3")),
    });
    const call = () =>
      new Promise<number>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": FUNDING, "content-type": "application/json" });
        stream.on("response", (headers) => resolve(Number(headers[":status"])));
        stream.on("error", reject);
        stream.resume();
        stream.end(BODY);
      });
    try {
      expect([await call(), await call(), await call()]).toEqual([404, 404, 429]);
    } finally {
      session.close();
    }
  });

  it("closes a connection from the proxy that does not open with a header, unanswered", async () => {
    const client = await openRawClient({ port: server.port, localAddress: PROXY });
    client.socket.write(`POST ${FUNDING} HTTP/1.1\r\nhost: x\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`);
    expect(await client.closedWithin(5_000)).toBe("closed");
    expect(client.received()).toBe("");
  });

  it("closes a connection from the proxy whose header does not come within HTTP_HEADERS_TIMEOUT_MS", async () => {
    const client = await openRawClient({ port: server.port, localAddress: PROXY });
    client.socket.write(proxyHeaderV1("198.51.100.8").slice(0, 10));
    expect(await client.closedWithin(2_000)).toBe("closed");
    expect(client.received()).toBe("");
  });

  it("never reads a header from a peer it was not told is a proxy: the bytes are a malformed request", async () => {
    const stranger = () => fromProxy(server.port, proxyHeaderV1("198.51.100.9"), STRANGER);
    await expect(fundingGet(server.baseUrl, stranger)).resolves.toBe(400);
  });
});

describe("clients behind a proxy that sends the PROXY protocol (TLS passed through)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      tls: selfSignedCertificate("127.0.0.1"),
      env: { PROXY_PROTOCOL_FROM: PROXY, MAX_CONNECTIONS_PER_ADDRESS: "1" },
    });
  });
  afterAll(() => server.close());

  const tlsFromProxy = (client: string) =>
    tls.connect({ socket: fromProxy(server.port, proxyHeaderV2(client)), rejectUnauthorized: false });

  it("answers HTTPS after the header", async () => {
    await expect(fundingGet(server.baseUrl, () => tlsFromProxy("198.51.100.4"))).resolves.toBe(404);
  });

  it("caps connections per client the proxy names, not per proxy", async () => {
    const held = tlsFromProxy("198.51.100.5");
    await new Promise((resolve) => held.once("secureConnect", resolve));
    try {
      // Another player through the same proxy is served; a second connection of the same one is refused.
      await expect(fundingGet(server.baseUrl, () => tlsFromProxy("198.51.100.6"))).resolves.toBe(404);
      await expect(fundingGet(server.baseUrl, () => tlsFromProxy("198.51.100.5"))).rejects.toThrow();
    } finally {
      held.destroy();
    }
  });
});
