import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, fetch as undiciFetch } from "undici";
import { describe, expect, it } from "vitest";
import { createListener, type RequestHandler } from "../../src/server/listener.js";

const answer: RequestHandler = (req, res) => {
  const delay = Number(new URL(req.url ?? "/", "http://x").searchParams.get("delay") ?? 0);
  setTimeout(() => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`http ${req.httpVersion}`);
  }, delay);
};

function selfSignedCertificate(): { certFile: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), "encore-tls-"));
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  return { certFile, keyFile };
}

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
    const listener = createListener({ handler: answer });
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
    const listener = createListener({ handler: answer, tls });
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
    const listener = createListener({ handler: answer });
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
    const listener = createListener({ handler: answer });
    const { port } = await listener.listen(0, "127.0.0.1");
    const inFlight = h2Get(`http://127.0.0.1:${port}`, {}, "/?delay=300");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = listener.close();
    expect(await inFlight).toBe("http 2.0");
    await closed;
  });
});
