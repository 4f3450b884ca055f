import { pbkdf2 } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { resolveWebhookTarget } from "../../src/usecases/webhooks/address-guard.js";

// docs/webhooks.md "Fairness": a webhook's host is asked of DNS (c-ares), bounded by
// WEBHOOK_TIMEOUT_MS, and never through getaddrinfo, whose lookups hold libuv's four pool
// threads: a studio whose name server never answers must not stall the process's file reads and
// key derivations, nor anyone else's lookups. WEBHOOK_DNS_SERVERS names the servers asked.

/** A name server on loopback: answers every A question with 127.0.0.1, or never answers. */
async function nameServer(answers: boolean): Promise<{ server: string; asked: string[]; close(): void }> {
  const asked: string[] = [];
  const socket: Socket = createSocket("udp4");
  socket.on("message", (query, from) => {
    const questionEnd = query.indexOf(0, 12) + 5; // the QNAME's root label, then QTYPE and QCLASS
    const type = query.readUInt16BE(questionEnd - 4);
    asked.push(`${type === 1 ? "A" : type === 28 ? "AAAA" : type}`);
    if (!answers) return;
    const header = Buffer.from(query.subarray(0, 12));
    header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
    header.writeUInt16BE(type === 1 ? 1 : 0, 6); // one answer for A, none (NODATA) for AAAA
    header.writeUInt16BE(0, 8);
    header.writeUInt16BE(0, 10);
    const question = query.subarray(12, questionEnd);
    // The answer names the question's name by pointer (0xc00c), type A, class IN, TTL 60, 4 bytes.
    const answer = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1]);
    socket.send(Buffer.concat([header, question, ...(type === 1 ? [answer] : [])]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return { server: `127.0.0.1:${port}`, asked, close: () => socket.close() };
}

const webhookConfig = (dnsServer: string, timeoutMs: number) =>
  loadConfig({
    WEBHOOK_ALLOW_HTTP: "true",
    WEBHOOK_ALLOW_ADDRESSES: "loopback",
    WEBHOOK_DNS_SERVERS: dnsServer,
    WEBHOOK_TIMEOUT_MS: String(timeoutMs),
  }).webhooks;

describe("a webhook's host asked of DNS", () => {
  let answering: Awaited<ReturnType<typeof nameServer>>;
  let silent: Awaited<ReturnType<typeof nameServer>>;
  beforeAll(async () => {
    answering = await nameServer(true);
    silent = await nameServer(false);
  });
  afterAll(() => {
    answering.close();
    silent.close();
  });

  it("resolves the host with the name servers WEBHOOK_DNS_SERVERS names, A and AAAA alike", async () => {
    const target = await resolveWebhookTarget(
      "http://receiver.studio.test:8443/hook",
      webhookConfig(answering.server, 2000),
    );
    expect(target).toMatchObject({ address: "127.0.0.1", family: 4 });
    expect(answering.asked.sort()).toEqual(["A", "AAAA"]);
  });

  it("gives up on a name server that never answers within about WEBHOOK_TIMEOUT_MS, holding no pool thread", async () => {
    const config = webhookConfig(silent.server, 600);
    const started = performance.now();
    // More hanging resolutions than libuv has pool threads (four by default).
    const hanging = Array.from({ length: 8 }, (_, n) =>
      resolveWebhookTarget(`http://silent-${n}.studio.test/hook`, config).then(
        () => "resolved",
        (error: Error) => error.message,
      ),
    );
    // Work of the pool (a key derivation) still runs at once meanwhile.
    const poolStarted = performance.now();
    await promisify(pbkdf2)("secret", "salt", 1, 32, "sha256");
    expect(performance.now() - poolStarted).toBeLessThan(1000);
    const outcomes = await Promise.all(hanging);
    for (const outcome of outcomes)
      expect(outcome).toMatch(/^has a host that does not resolve \(silent-\d\.studio\.test\)$/);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(silent.asked.length).toBeGreaterThanOrEqual(16);
  });
});
