import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { Logger } from "pino";
import { type App, createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createListener } from "../../src/server/listener.js";
import type { Tracing } from "../../src/telemetry/tracing.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

export const TEST_OPERATOR_TOKEN = "test-operator-token-0123456789abcdef";
export const TEST_MASTER_KEY = Buffer.alloc(32, 9);

/**
 * The RPC protocols a client can speak: "connect" is Connect with binary protobuf (connect-node's
 * default), "connect-json" Connect with JSON, as browsers send it.
 */
export type ProtocolName = "connect" | "connect-json" | "grpc" | "grpc-web";

export interface TestServer {
  baseUrl: string;
  port: number;
  db: TestDatabase;
  /** The app behind the listener (its metrics, for tests that scrape them). */
  app: App;
  /**
   * A client of `service` over one of the RPC protocols; with `token`, every call sends
   * `Authorization: Bearer <token>`.
   */
  client<S extends DescService>(service: S, protocol?: ProtocolName, token?: string): Client<S>;
  /** The transport under `client`, for calls made by method descriptor (test/protocols). */
  transport(protocol: ProtocolName, token?: string): Transport;
  /** Ends long-lived streams as a shutting-down process does; close() does it too. */
  beginShutdown(): void;
  /** POSTs JSON to a REST path; returns status, headers and the parsed body. */
  rest(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RestResult>;
  close(): Promise<void>;
}

export interface RestResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the wire answered
  body: any;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  now?: () => Date;
  db?: TestDatabase;
  /** Replaces the service's logger, e.g. to capture every line a test provokes. */
  logger?: Logger;
  /** Tracing into a test's own exporter. */
  tracing?: Tracing;
  /** How often gRPC health Watch streams look at readiness again. */
  healthWatchIntervalMs?: number;
  /** Serves TLS with this certificate (baseUrl is then https). */
  tls?: { certFile: string; keyFile: string };
  /** ENCORE_MASTER_KEY (TEST_MASTER_KEY unless given) and ENCORE_MASTER_KEY_PREVIOUS. */
  masterKey?: Buffer;
  previousMasterKey?: Buffer;
  /** The studio console's build folder (the app's default otherwise). */
  consoleDir?: string;
  /** Listens on this port (0, any free one, unless given): a PUBLIC_URL naming the server needs it first. */
  port?: number;
}

/** The whole service on a real listener at port 0, over a fresh database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const db = options.db ?? (await createTestDatabase());
  // Tests read exactly what they wrote unless they turn the public read cache on themselves.
  const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_READ_CACHE_MS: "0", ...options.env });
  const app = createApp({
    config,
    database: db.database,
    logger: options.logger ?? createLogger(config.logLevel),
    secrets: {
      masterKey: options.masterKey ?? TEST_MASTER_KEY,
      previousMasterKey: options.previousMasterKey,
      operatorToken: TEST_OPERATOR_TOKEN,
    },
    now: options.now,
    tracing: options.tracing,
    healthWatchIntervalMs: options.healthWatchIntervalMs,
    consoleDir: options.consoleDir,
  });
  const listener = createListener({
    handler: app.handler,
    tls: options.tls,
    connections: config.connections,
    clientAddresses: app.clientAddresses,
  });
  const address = await listener.listen(options.port ?? 0, "127.0.0.1");
  const baseUrl = `${options.tls ? "https" : "http"}://127.0.0.1:${address.port}`;
  const transport = (protocol: ProtocolName, token: string | undefined): Transport => {
    const interceptors: Interceptor[] = token
      ? [
          (next) => (req) => {
            req.header.set("authorization", `Bearer ${token}`);
            return next(req);
          },
        ]
      : [];
    if (protocol === "grpc") return createGrpcTransport({ baseUrl, interceptors });
    if (protocol === "grpc-web") return createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors });
    return createConnectTransport({
      baseUrl,
      httpVersion: "1.1",
      useBinaryFormat: protocol !== "connect-json",
      interceptors,
    });
  };
  app.start();
  return {
    baseUrl,
    port: address.port,
    db,
    app,
    client: (service, protocol = "connect", token) => createClient(service, transport(protocol, token)),
    transport,
    beginShutdown: () => app.beginShutdown(),
    async rest(method, path, body, headers = {}) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      app.beginShutdown();
      await listener.close();
      await app.stop();
      if (!options.db) await db.drop();
    },
  };
}
