import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { type EncoreTransportOptions, interceptorsOf } from "./transport-options.js";

export interface WebTransportOptions extends EncoreTransportOptions {
  /** The wire protocol; "connect" unless given. Browsers cannot speak plain gRPC. */
  protocol?: "connect" | "grpc-web";
  /** Replaces the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A transport for browsers (connect-web, over fetch) to the service at `baseUrl`, with the API
 * key on every call. The service answers browsers only from the origins the operator allowed.
 */
export function createWebTransport(options: WebTransportOptions): Transport {
  const { baseUrl, useBinaryFormat, fetch } = options;
  const interceptors = interceptorsOf(options);
  if (options.protocol === "grpc-web") return createGrpcWebTransport({ baseUrl, interceptors, fetch });
  return createConnectTransport({ baseUrl, interceptors, useBinaryFormat, fetch });
}
