import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSteamHttp } from "../../../src/platform/steam/steam-http.js";

// STEAM_TIMEOUT_MS bounds a whole exchange, not only the wait for headers or between two chunks
// of the body: a server that keeps a body trickling in never trips undici's own timeouts.
describe("one exchange with Steam", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url === "/quick") {
        res.end('{"response":{"result":"OK"}}');
        return;
      }
      // A byte of whitespace every 50 ms, for two seconds, then the body.
      const drip = setInterval(() => res.write(" "), 50);
      setTimeout(() => {
        clearInterval(drip);
        res.end('{"response":{"result":"OK"}}');
      }, 2_000);
      res.on("close", () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const steam = () => createSteamHttp({ timeoutMs: 300, readRetries: 0, retryBackoffMs: 0 });

  it("ends a body that trickles past the timeout as unavailable, at the timeout", async () => {
    const client = steam();
    try {
      // Without the deadline the body would arrive whole after two seconds, and answer ok.
      const result = await client.send({ call: "Test", url: new URL(`${base}/drip`), method: "GET" });
      expect(result).toEqual({ kind: "unavailable", cause: "timeout after 300 ms" });
    } finally {
      await client.close();
    }
  });

  it("answers a quick exchange as before", async () => {
    const client = steam();
    try {
      const result = await client.send({ call: "Test", url: new URL(`${base}/quick`), method: "GET" });
      expect(result.kind).toBe("ok");
    } finally {
      await client.close();
    }
  });
});
