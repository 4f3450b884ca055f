import { gzipSync } from "node:zlib";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRawClient } from "../support/raw-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const PATH = "/v1/public/funding:get";
const BODY = JSON.stringify({ campaignKey: "nope" });

describe("HTTP details", () => {
  let server: TestServer;
  const lines: { level: number; msg: string; stack?: unknown; err?: unknown }[] = [];
  beforeAll(async () => {
    const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    server = await startTestServer({ logger });
  });
  afterAll(() => server.close());

  const post = (body: Uint8Array | string, headers: Record<string, string>) =>
    fetch(`${server.baseUrl}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  it("decodes a gzip Content-Encoding body before reading it as JSON", async () => {
    const res = await post(gzipSync(BODY), { "content-encoding": "gzip" });
    // 404: the campaign key was read, so the body was decoded.
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: number }).code).toBe(5);
  });

  it("decodes Transfer-Encoding: gzip, chunked", async () => {
    const client = await openRawClient({ port: server.port });
    const gzipped = gzipSync(BODY);
    client.socket.write(
      `POST ${PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: gzip, chunked\r\n\r\n`,
    );
    client.socket.write(Buffer.concat([Buffer.from(`${gzipped.length.toString(16)}\r\n`), gzipped]));
    client.socket.write("\r\n0\r\n\r\n");
    const answer = await client.waitFor('"details":[]}');
    client.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
  });

  it("refuses a gzip body that inflates past 64 KiB (a gzip bomb) with 400, never inflating it", async () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, " "));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await post(bomb, { "content-encoding": "gzip" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 3, message: expect.stringContaining("exceeds"), details: [] });
  });

  it("refuses a body that claims gzip and is not with 400", async () => {
    const res = await post(BODY, { "content-encoding": "gzip" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 3, message: "the request body is not valid gzip", details: [] });
  });

  it.each(["br", "deflate", "zstd", "gzip, br"])("answers 415 for a %s body, naming gzip", async (coding) => {
    const res = await post(BODY, { "content-encoding": coding });
    expect(res.status).toBe(415);
    expect(res.headers.get("accept-encoding")).toBe("gzip");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ code: 3, message: expect.stringContaining("not supported"), details: [] });
  });

  it("answers a CONNECT request with a google.rpc.Status instead of closing the socket", async () => {
    const client = await openRawClient({ port: server.port });
    client.socket.write("CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n");
    expect(await client.closedWithin(5_000)).toBe("closed");
    const [head, body] = client.received().split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(JSON.parse(body ?? "")).toEqual({ code: 3, message: expect.any(String), details: [] });
  });

  it("logs a request its client abandoned mid-body at debug, without a stack, and no error line", async () => {
    const client = await openRawClient({ port: server.port });
    client.socket.write(
      `POST ${PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"campaignKey"`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.destroy();
    for (let i = 0; i < 100 && !lines.some((l) => l.msg === "request aborted by the client"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const aborted = lines.find((l) => l.msg === "request aborted by the client");
    expect(aborted).toMatchObject({ level: 20, method: "POST", path: PATH });
    expect(JSON.stringify(aborted)).not.toContain("stack");
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
