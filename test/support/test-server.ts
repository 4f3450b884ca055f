import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { Logger } from "pino";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createListener } from "../../src/server/listener.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

export const TEST_OPERATOR_TOKEN = "test-operator-token-0123456789abcdef";
export const TEST_MASTER_KEY = Buffer.alloc(32, 9);

export type ProtocolName = "connect" | "grpc" | "grpc-web";

export interface TestServer {
  baseUrl: string;
  port: number;
  db: TestDatabase;
  /**
   * A client of `service` over one of the three RPC protocols; with `token`, every call sends
   * `Authorization: Bearer <token>`.
   */
  client<S extends DescService>(service: S, protocol?: ProtocolName, token?: string): Client<S>;
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
    secrets: { masterKey: TEST_MASTER_KEY, operatorToken: TEST_OPERATOR_TOKEN },
    now: options.now,
  });
  const listener = createListener({ handler: app.handler });
  const address = await listener.listen(0, "127.0.0.1");
  const baseUrl = `http://127.0.0.1:${address.port}`;
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
    return createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors });
  };
  app.start();
  return {
    baseUrl,
    port: address.port,
    db,
    client: (service, protocol = "connect", token) => createClient(service, transport(protocol, token)),
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
      await listener.close();
      await app.stop();
      if (!options.db) await db.drop();
    },
  };
}
