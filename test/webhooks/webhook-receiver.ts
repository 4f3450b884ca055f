import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "../../clients/ts/src/webhook-signature.js";
import { loadConfig } from "../../src/config.js";
import { createWebhookDeliveryJob } from "../../src/jobs/webhook-delivery-job.js";
import { createLogger } from "../../src/logger.js";
import type { Db } from "../../src/store/open-database.js";
import { TEST_MASTER_KEY } from "../support/test-server.js";

// A studio's webhook receiver on loopback, as docs/webhooks.md tells a studio to write one: it
// reads the raw body, checks Encore-Signature with the TypeScript client's helper, and records
// what came. `status` is what it answers (503: "down").

export interface Received {
  eventId: string;
  signature: string;
  body: string;
  envelope: {
    id: string;
    type: string;
    api_version: string;
    create_time: string;
    account: string;
    // biome-ignore lint/suspicious/noExplicitAny: the resource as the API's JSON
    data: any;
  };
}

export interface Receiver {
  url: string;
  received: Received[];
  status: number;
  /** Whether every delivery's signature passes the documented check with `secret`. */
  allSignedWith(secret: string): boolean;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const receiver = { status: 200 } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (receiver.status >= 200 && receiver.status < 300) {
        received.push({
          eventId: String(req.headers["encore-event-id"]),
          signature: String(req.headers["encore-signature"]),
          body,
          envelope: JSON.parse(body),
        });
      }
      res.writeHead(receiver.status, { "content-type": "text/plain" });
      res.end(receiver.status < 300 ? "ok" : `down for maintenance ${"x".repeat(2000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    allSignedWith: (secret: string) =>
      received.every((r) =>
        verifyWebhookSignature({ secret, body: r.body, header: r.signature, toleranceSeconds: 10 * 24 * 3600 }),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The environment every webhook test runs the service with: http and loopback allowed. */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOW_HTTP: "true",
  WEBHOOK_ALLOW_ADDRESSES: "loopback",
  // The tests run the delivery passes themselves.
  WEBHOOK_DELIVERY_INTERVAL_MS: "3600000",
  WEBHOOK_TIMEOUT_MS: "2000",
};

/**
 * A delivery job of its own on a clock the test moves, as another replica would run it, so a
 * retry's backoff and an endpoint's disabling are reached by moving the clock, never by waiting.
 */
export function deliveryReplica(db: Db, clock: { now: Date }, env: Record<string, string> = {}) {
  const config = loadConfig({ LOG_LEVEL: "silent", ...WEBHOOK_TEST_ENV, ...env });
  return createWebhookDeliveryJob({
    deps: {
      db,
      masterKeys: { current: TEST_MASTER_KEY },
      now: () => clock.now,
      logger: createLogger("silent"),
      config,
    },
    intervalMs: 3_600_000,
    random: () => 0.5,
  });
}

/** Runs passes of `job` until one finds nothing due; every attempt's result. */
export async function drain(job: { runOnce(): Promise<unknown[]> }): Promise<unknown[]> {
  const all: unknown[] = [];
  for (;;) {
    const results = await job.runOnce();
    if (results.length === 0) return all;
    all.push(...results);
  }
}
