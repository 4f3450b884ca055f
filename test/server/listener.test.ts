import http2 from "node:http2";
import { Agent, fetch as undiciFetch } from "undici";
import { describe, expect, it } from "vitest";
import type { ConnectionPolicy } from "../../src/server/connection-guard.js";
import { createListener, type RequestHandler } from "../../src/server/listener.js";
import { selfSignedCertificate } from "../support/certificate.js";
import { H2_PREFACE, openRawClient } from "../support/raw-client.js";

const connections: ConnectionPolicy = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  http2IdleTimeoutMs: 10_000,
  sendTimeoutMs: 10_000,
  maxConnections: 100,
  maxConnectionsPerAddress: 100,
};

const answer: RequestHandler = (req, res) => {
  const query = new URL(req.url ?? "/", "http://x").searchParams;
  const respond = () =>
    setTimeout(
      () => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(`http ${req.httpVersion}`);
      },
      Number(query.get("delay") ?? 0),
    );
  if (!query.has("read")) return respond();
  // As the service does: the whole body first.
  req.resume();
  req.once("end", respond);
};

function h2Get(url: string, options: http2.SecureClientSessionOptions = {}, path = "/"): Promise<string> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url, options);
    session.on("error", reject);
    const stream = session.request({ ":path": path });
    let body = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      body += chunk;
    });
    stream.on("end", () => {
      session.close();
      resolve(body);
    });
    stream.on("error", reject);
  });
}

describe("createListener", () => {
  it("serves HTTP/1.1 and HTTP/2 with prior knowledge on one cleartext port", async () => {
    const listener = createListener({ handler: answer, connections });
    const { port } = await listener.listen(0, "127.0.0.1");
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("http 1.1");
      expect(await h2Get(`http://127.0.0.1:${port}`)).toBe("http 2.0");
    } finally {
      await listener.close();
    }
  });

  it("serves TLS when a certificate and key are configured: HTTP/2 by ALPN, and HTTP/1.1", async () => {
    const tls = selfSignedCertificate();
    const listener = createListener({ handler: answer, tls, connections });
    const { port } = await listener.listen(0, "127.0.0.1");
    try {
      expect(await h2Get(`https://127.0.0.1:${port}`, { rejectUnauthorized: false })).toBe("http 2.0");
      const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
      const res = await undiciFetch(`https://127.0.0.1:${port}/`, { dispatcher });
      expect(await res.text()).toBe("http 1.1");
      await dispatcher.close();
    } finally {
      await listener.close();
    }
  });

  it("finishes in-flight requests on close, then stops accepting", async () => {
    const listener = createListener({ handler: answer, connections });
    const { port } = await listener.listen(0, "127.0.0.1");
    const inFlight = fetch(`http://127.0.0.1:${port}/?delay=300`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = listener.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("http 1.1");
    await closed;
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it("lets an HTTP/2 stream in flight finish on close", async () => {
    const listener = createListener({ handler: answer, connections });
    const { port } = await listener.listen(0, "127.0.0.1");
    const inFlight = h2Get(`http://127.0.0.1:${port}`, {}, "/?delay=300");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = listener.close();
    expect(await inFlight).toBe("http 2.0");
    await closed;
  });

  it("closes every connection with nothing in flight at once on close", async () => {
    const listener = createListener({ handler: answer, connections });
    const { port } = await listener.listen(0, "127.0.0.1");
    const silent = await openRawClient({ port });
    const sniffing = await openRawClient({ port });
    sniffing.socket.write("PRI * HTTP");
    const session = await openRawClient({ port });
    session.socket.write(H2_PREFACE);
    // A client that never reads: its session's GOAWAY never leaves, yet the drain ends.
    const deaf = await openRawClient({ port });
    deaf.socket.pause();
    deaf.socket.write(H2_PREFACE);
    const keepAlive = await openRawClient({ port });
    keepAlive.socket.write("GET / HTTP/1.1\r\nhost: x\r\n\r\n");
    await keepAlive.waitFor("http 1.1");
    const busy = await openRawClient({ port });
    busy.socket.write("GET /?delay=300 HTTP/1.1\r\nhost: x\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 50));

    const closed = listener.close().then(() => "closed");
    // Well inside every timeout of the policy: only the drain can have closed them.
    const outcomes = await Promise.all([silent, sniffing, session, keepAlive].map((c) => c.closedWithin(2_000)));
    expect(outcomes).toEqual(["closed", "closed", "closed", "closed"]);
    // The request in flight still gets its whole answer; then its connection closes too.
    expect(await busy.closedWithin(2_000)).toBe("closed");
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*http 1\.1/);
    expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r("open"), 2_000))])).toBe("closed");
  });

  it("cuts off a request still sending its body when the drain starts", async () => {
    const listener = createListener({ handler: answer, connections });
    const { port } = await listener.listen(0, "127.0.0.1");
    const slow = await openRawClient({ port });
    slow.socket.write("POST /?read=1 HTTP/1.1\r\nhost: x\r\ncontent-length: 500\r\n\r\n");
    slow.dribble("x".repeat(500), 50);
    const h2 = http2.connect(`http://127.0.0.1:${port}`);
    h2.on("error", () => {});
    const stream = h2.request({ ":method": "POST", ":path": "/?read=1" });
    stream.on("error", () => {});
    stream.write("x");
    await new Promise((resolve) => setTimeout(resolve, 200));

    const closed = listener.close().then(() => "closed");
    expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r("open"), 2_000))])).toBe("closed");
    expect(await slow.closedWithin(2_000)).toBe("closed");
    h2.destroy();
  });

  it("never cuts a request whose body has arrived, however long its answer takes", async () => {
    const listener = createListener({ handler: answer, connections: { ...connections, requestTimeoutMs: 100 } });
    const { port } = await listener.listen(0, "127.0.0.1");
    try {
      const res = await fetch(`http://127.0.0.1:${port}/?delay=400`);
      expect(await res.text()).toBe("http 1.1");
      const posted = await fetch(`http://127.0.0.1:${port}/?read=1&delay=400`, { method: "POST", body: "x" });
      expect(await posted.text()).toBe("http 1.1");
      expect(await h2Get(`http://127.0.0.1:${port}`, {}, "/?delay=400")).toBe("http 2.0");
    } finally {
      await listener.close();
    }
  });
});
