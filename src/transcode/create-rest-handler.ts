import { createRegistry, type DescService, type Registry } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues, createContextValues } from "@connectrpc/connect";
import { file_google_rpc_error_details } from "../../gen/google/rpc/error_details_pb.js";
import { file_google_rpc_status } from "../../gen/google/rpc/status_pb.js";
import { bindRequest } from "./bind-request.js";
import { ACCEPTED_CODINGS, decodeBody, NO_CODINGS, requestCodings } from "./content-coding.js";
import { createDispatch, type DispatchOptions } from "./dispatch.js";
import { isJsonContentType, parseJsonBody } from "./json-body.js";
import { readBody } from "./read-body.js";
import { renderResponseText } from "./render.js";
import { RenderedJson, type RestRequest, type RestResponse, sendJson } from "./respond.js";
import { createRouteTable, type Route } from "./route-table.js";
import { errorToStatus } from "./status-json.js";

/** `routes`, `interceptors` and `shutdownSignal` are the ones given to connectNodeAdapter. */
export interface RestHandlerOptions extends DispatchOptions {
  /** Services whose `google.api.http` rules become routes. Default: every service `routes` registers. */
  readonly services?: readonly DescService[];
  /** Extra types for `Any` fields and error details; google.rpc error details are always known. */
  readonly registry?: Registry;
  /** Largest accepted request body in bytes (spec 8). Default 64 KiB. */
  readonly maxBodyBytes?: number;
  /** Mirrors the adapter's hook: per-request values (e.g. the socket address) for interceptors. */
  readonly contextValues?: (req: RestRequest) => ContextValues;
  /**
   * Runs once a route matched, before the body is read: a gate such as a rate limit that must
   * answer before any work (spec 8). A thrown error is the answer; the body is never read.
   */
  readonly beforeBody?: (call: { route: Route; contextValues: ContextValues }) => Promise<void>;
  /** Receives unexpected failures, which are answered INTERNAL without the cause. */
  readonly onInternalError?: (cause: unknown) => void;
  /** Told of a request its client abandoned before its body ended; nothing is answered. */
  readonly onClientAborted?: (call: { method: string; path: string; reason: string }) => void;
}

export type RestHandler = (req: RestRequest, res: RestResponse) => void;

/**
 * A Node request handler serving every `google.api.http` route of the services as canonical
 * JSON, meant as connect-node's `fallback` so paths that are not Connect/gRPC fall through to
 * it. Routes are compiled and checked for conflicts here, once; this throws on a bad rule.
 */
export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const dispatch = createDispatch(options);
  const services = options.services ?? [...new Set([...dispatch.methods].map((m) => m.parent))];
  const table = createRouteTable(services);
  for (const { method } of table.routes) {
    if (!dispatch.methods.has(method))
      throw new Error(`no implementation of ${method.parent.typeName}.${method.name} to route to`);
  }
  const registry = createRegistry(
    file_google_rpc_status,
    file_google_rpc_error_details,
    ...services.map((s) => s.file),
    ...(options.registry === undefined ? [] : [options.registry]),
  );
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const onInternalError =
    options.onInternalError ?? ((cause: unknown) => console.error("REST transcoding failed", cause));
  const fail = (req: RestRequest, res: RestResponse, error: unknown, extra?: { header?: Headers; close?: boolean }) => {
    const status = errorToStatus(error, { registry, onInternalError });
    sendJson(req, res, { status: status.httpStatus, body: status.body, header: extra?.header, close: extra?.close });
  };

  async function handle(req: RestRequest, res: RestResponse): Promise<void> {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const match = table.match(req.method ?? "GET", path);
    // A refused request's body is never read: end the connection rather than let Node drain it.
    const close = !isDeclaredEmpty(req);
    if (match.kind === "not-found") {
      return fail(req, res, new ConnectError(`no route for ${req.method} ${path}`, Code.NotFound), { close });
    }
    if (match.kind === "wrong-method") {
      // 501 / code 12 as grpc-gateway: the body's code and the HTTP status stay on the one
      // table (405 has no google.rpc.Code); Allow still names the methods that exist.
      const header = new Headers({ allow: match.allowed.join(", ") });
      const error = new ConnectError(`${req.method} is not supported on ${path}`, Code.Unimplemented);
      return fail(req, res, error, { header, close });
    }
    const { route } = match;
    const hasBody = route.body.kind !== "none";
    const contentType = req.headers["content-type"];
    // Spec 2.1: calls with a body are JSON only. A request with no body and no content type
    // is the empty body, read as `{}`. 400/code 3 rather than 415, to stay on the one table.
    if (hasBody && !isJsonContentType(contentType) && !(contentType === undefined && !close)) {
      return fail(req, res, new ConnectError("Content-Type must be application/json", Code.InvalidArgument), { close });
    }
    // A route without a body reads none, so a coding names nothing it decodes: only a route with
    // one can answer 415, as the OpenAPI document declares (src/openapi/build-openapi.ts).
    const codings = hasBody ? requestCodings(req.headers) : NO_CODINGS;
    if (codings.kind === "unsupported") {
      // RFC 9110 15.5.16: 415 names the codings that are understood; the body keeps code 3.
      const message = `the request body's ${codings.coding} coding is not supported; send it as gzip or uncompressed`;
      const body = { code: Code.InvalidArgument, message, details: [] };
      const header = new Headers({ "accept-encoding": ACCEPTED_CODINGS });
      return sendJson(req, res, { status: 415, body, header, close });
    }
    const contextValues = options.contextValues?.(req) ?? createContextValues();
    if (options.beforeBody) {
      try {
        await options.beforeBody({ route, contextValues });
      } catch (error) {
        return fail(req, res, error, { close });
      }
    }
    const read = await readBody(req, maxBodyBytes);
    if (read.kind === "aborted") {
      return options.onClientAborted?.({ method: route.httpMethod, path, reason: read.cause.message });
    }
    const tooLarge = () =>
      fail(req, res, new ConnectError(`the request body exceeds ${maxBodyBytes} bytes`, Code.InvalidArgument), {
        close: true,
      });
    if (read.kind === "too-large") return tooLarge();
    const decoding = decodeBody(read.bytes, codings.codings, maxBodyBytes);
    const decoded = decoding instanceof Promise ? await decoding : decoding;
    if (decoded.kind === "too-large") return tooLarge();
    if (decoded.kind === "malformed") {
      return fail(req, res, new ConnectError("the request body is not valid gzip", Code.InvalidArgument));
    }
    const request = bindRequest({
      route,
      variables: match.variables,
      body: hasBody ? parseJsonBody(decoded.bytes) : undefined,
      query: q < 0 ? "" : url.slice(q + 1),
      registry,
    });
    const result = await dispatch.call({
      method: route.method,
      request,
      httpRequest: req,
      contextValues,
      httpResponse: res,
    });
    if (!result.ok) return fail(req, res, result.error, { header: result.header });
    const body = new RenderedJson(renderResponseText(route, result.message, registry));
    sendJson(req, res, { status: 200, body, header: result.header });
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      try {
        fail(req, res, error);
      } catch (cause) {
        // Not even a Status could be written (e.g. a detail type no registry knows).
        onInternalError(cause);
        sendJson(req, res, { status: 500, body: { code: Code.Internal, message: "internal error", details: [] } });
      }
    });
  };
}

// HTTP/1.1 states an absent body by sending neither Content-Length nor Transfer-Encoding;
// HTTP/2 cannot say so up front unless Content-Length is 0.
function isDeclaredEmpty(req: RestRequest): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return length === "0";
  return !("stream" in req) && req.headers["transfer-encoding"] === undefined;
}
