import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { type EncoreTransportOptions, interceptorsOf } from "./transport-options.js";

export { type VerifyWebhookOptions, verifyWebhookSignature } from "./webhook-signature.js";

export interface NodeTransportOptions extends EncoreTransportOptions {
  /** The wire protocol; "connect" unless given. */
  protocol?: "connect" | "grpc" | "grpc-web";
  /** HTTP/1.1 or HTTP/2 for Connect and gRPC-web ("1.1" unless given); gRPC is always HTTP/2. */
  httpVersion?: "1.1" | "2";
}

/** A transport for Node (connect-node) to the service at `baseUrl`, with the API key on every call. */
export function createNodeTransport(options: NodeTransportOptions): Transport {
  const { baseUrl, useBinaryFormat } = options;
  const interceptors = interceptorsOf(options);
  const httpVersion = options.httpVersion ?? "1.1";
  switch (options.protocol ?? "connect") {
    case "grpc":
      return createGrpcTransport({ baseUrl, interceptors });
    case "grpc-web":
      return createGrpcWebTransport({ baseUrl, interceptors, httpVersion });
    default:
      return createConnectTransport({ baseUrl, interceptors, httpVersion, useBinaryFormat });
  }
}
