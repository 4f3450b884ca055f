import { randomUUID } from "node:crypto";
import type { DescService, Registry } from "@bufbuild/protobuf";
import {
  type ConnectRouter,
  type ContextValues,
  createConnectRouter,
  createContextValues,
  type Interceptor,
} from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { Logger } from "pino";
import { kClientAddress, kRequestId } from "../core/context-keys.js";
import type { FundRoutes } from "../fund/fund-routes.js";
import { createRestHandler, type RestHandlerOptions } from "../transcode/create-rest-handler.js";
import { type ClientAddresses, createClientAddresses } from "./client-address.js";
import { type ConsoleRouteOptions, createConsoleRoute } from "./console-route.js";
import type { Cors } from "./cors.js";
import { createToolsHandler } from "./create-tools-handler.js";
import { createHealthRoutes } from "./health.js";
import type { RequestHandler } from "./listener.js";
import { createOpenApiRoute } from "./openapi-route.js";
import { createPaymentWebhook, type PaymentWebhookOptions } from "./payment-webhook.js";
import { createRequestBodyErrors } from "./request-body-errors.js";
import { acceptRequestId } from "./request-id.js";

export interface RequestHandlerOptions {
  /** Registers every service implementation on a router. */
  routes: (router: ConnectRouter) => void;
  /** Run for every call on every protocol, REST included, first to last. */
  interceptors: Interceptor[];
  /** Largest public request body (spec 8: 64 KiB). */
  maxBodyBytes: number;
  ready: () => Promise<void>;
  /** Extra `/readyz` lines (health.ts). */
  readyDetail?: () => string[];
  /** Aborted when shutdown begins: readiness turns false and health Watch streams end. */
  shutdownSignal?: AbortSignal;
  /** How often a `grpc.health.v1.Health/Watch` stream looks at readiness again. */
  healthWatchIntervalMs?: number;
  logger: Logger;
  /** CORS for the origins the operator allowed (spec 8); none when unset. */
  cors?: Cors;
  /** Types carried in `google.protobuf.Any` fields (e.g. an Operation's), for JSON on every protocol. */
  registry?: Registry;
  /** `POST /v1/billing/webhooks/payments`, the payment provider's notifications; none when unset. */
  paymentWebhook?: PaymentWebhookOptions;
  /** The OpenAPI document served at `GET /openapi.json`; not served when unset. */
  openApiDocument?: string;
  /** The studio console's static build, served at `/console/`; not served when unset. */
  console?: ConsoleRouteOptions;
  /** The campaigns' public funding pages under `/fund/` (src/fund/); not served when unset. */
  fund?: FundRoutes;
  /** REST only: a gate run before a matched route's body is read (the rate limit, spec 8). */
  beforeRestBody?: RestHandlerOptions["beforeBody"];
  /** Who a request's client is (spec 8); default: its connection's peer. */
  clientAddresses?: ClientAddresses;
}

type Req = Parameters<RequestHandler>[0];

const DEFAULT_HEALTH_WATCH_INTERVAL_MS = 5_000;

/**
 * The whole HTTP surface on one handler: health, then Connect, gRPC and gRPC-web by
 * connect-node, then every `google.api.http` route by the REST transcoder as its fallback.
 * gRPC health and server reflection come first, outside the product's interceptors
 * (create-tools-handler.ts).
 */
export function createRequestHandler(options: RequestHandlerOptions): RequestHandler {
  const requestIds = new WeakMap<Req, string>();
  const clientAddresses = options.clientAddresses ?? createClientAddresses();
  const contextValues = (req: Req): ContextValues => {
    // The connection's client: a caller-written header never decides who is calling.
    return createContextValues()
      .set(kClientAddress, clientAddresses.of(req.socket))
      .set(kRequestId, requestIds.get(req) ?? randomUUID());
  };

  // REST runs the implementations behind the same interceptors as the adapter's router
  // (docs/architecture.md "How a request flows").
  const rest = createRestHandler({
    routes: options.routes,
    interceptors: options.interceptors,
    maxBodyBytes: options.maxBodyBytes,
    registry: options.registry,
    contextValues,
    ...(options.beforeRestBody === undefined ? {} : { beforeBody: options.beforeRestBody }),
    onInternalError: (cause) => options.logger.error({ err: cause }, "REST transcoding failed"),
    // Any client can hang up mid-body: not an error of ours, and no stack.
    onClientAborted: (call) => options.logger.debug(call, "request aborted by the client"),
  });
  const connect = connectNodeAdapter({
    routes: options.routes,
    interceptors: options.interceptors,
    readMaxBytes: options.maxBodyBytes,
    requestGate: createRequestBodyErrors({ maxBodyBytes: options.maxBodyBytes }),
    // Spec 2.1 for JSON on every protocol: fields with no value are present as their zero value.
    jsonOptions: {
      alwaysEmitImplicit: true,
      ...(options.registry === undefined ? {} : { registry: options.registry }),
    },
    contextValues,
    fallback: rest,
  });
  const shutdownSignal = options.shutdownSignal ?? new AbortController().signal;
  const ready = () => (shutdownSignal.aborted ? Promise.reject(new Error("shutting down")) : options.ready());
  const rpc = createToolsHandler({
    services: servicesOf(options.routes),
    isReady: () =>
      ready().then(
        () => true,
        () => false,
      ),
    shutdownSignal,
    watchIntervalMs: options.healthWatchIntervalMs ?? DEFAULT_HEALTH_WATCH_INTERVAL_MS,
    maxBodyBytes: options.maxBodyBytes,
    fallback: connect,
  });
  const health = createHealthRoutes({
    ready,
    ...(options.readyDetail === undefined ? {} : { detail: options.readyDetail }),
  });
  const openApi = options.openApiDocument === undefined ? undefined : createOpenApiRoute(options.openApiDocument);
  const studioConsole = options.console && createConsoleRoute(options.console);
  const webhook =
    options.paymentWebhook &&
    createPaymentWebhook({
      ...options.paymentWebhook,
      maxBodyBytes: options.maxBodyBytes,
      logger: options.logger,
      clientAddresses,
    });

  return (req, res) => {
    // Echoed and logged as given when well-formed, so a proxy's id follows the call through.
    const requestId = acceptRequestId(req.headers["x-request-id"]);
    requestIds.set(req, requestId);
    // Spec 2.1: no response of this API may be cached; it carries funding and credentials.
    res.setHeader("cache-control", "no-store");
    res.setHeader("x-request-id", requestId);
    if (health(req, res)) return;
    if (openApi?.(req, res)) return;
    if (studioConsole?.(req, res)) return;
    if (options.fund?.(req, res, clientAddresses.of(req.socket))) return;
    if (webhook?.(req, res)) return;
    const { cors } = options;
    if (!cors || req.headers.origin === undefined) return rpc(req, res);
    // CORS first: connect-node answers OPTIONS 405 (reference api-conventions 8).
    cors(req, res).then(
      (answered) => answered || rpc(req, res),
      (error: unknown) => {
        options.logger.error({ err: error }, "allowed origins could not be read; no CORS headers sent");
        rpc(req, res);
      },
    );
  };
}

/** The services `routes` registers, read off a router it fills. */
function servicesOf(routes: (router: ConnectRouter) => void): DescService[] {
  const router = createConnectRouter();
  routes(router);
  return [...new Set(router.handlers.map((h) => h.service))];
}
