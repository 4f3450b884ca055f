import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { ProtocolName, TestServer } from "../support/test-server.js";

/**
 * Clients whose every call sends `x-request-id: <prefix>-<n>`; `last()` is the id of the latest
 * call, so a test names the audit event each call should leave.
 */
export function requestIdClients(server: TestServer, prefix: string) {
  let count = 0;
  let last = "";
  const interceptors = (token: string | undefined): Interceptor[] => [
    (next) => (req) => {
      count += 1;
      last = `${prefix}-${count}`;
      req.header.set("x-request-id", last);
      if (token) req.header.set("authorization", `Bearer ${token}`);
      return next(req);
    },
  ];
  return {
    client<S extends DescService>(
      service: S,
      token: string | undefined,
      protocol: ProtocolName = "connect",
    ): Client<S> {
      const baseUrl = server.baseUrl;
      const options = { baseUrl, interceptors: interceptors(token) };
      const transport =
        protocol === "grpc"
          ? createGrpcTransport(options)
          : protocol === "grpc-web"
            ? createGrpcWebTransport({ ...options, httpVersion: "1.1" })
            : createConnectTransport({ ...options, httpVersion: "1.1", useBinaryFormat: protocol !== "connect-json" });
      return createClient(service, transport);
    },
    last: () => last,
  };
}
