import type { DescMethod, DescService } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  type ConnectRouterOptions,
  type ContextValues,
  createContextValues,
  createHandlerContext,
  createMethodImplSpec,
  createServiceImplSpec,
  type HandlerContext,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { invokeUnaryImplementation } from "@connectrpc/connect/protocol";
import type { Dispatch, DispatchCall, DispatchResult } from "./dispatch.js";
import { onClientGone } from "./respond.js";

export interface ImplementationDispatchOptions extends ConnectRouterOptions {
  /** The same function given to connectNodeAdapter's `routes`: registers the implementations. */
  readonly routes: (router: ConnectRouter) => void;
}

interface Registered {
  readonly spec: MethodImplSpec & { kind: "unary" };
  readonly options: ConnectRouterOptions;
}

/**
 * Runs the implementation in-process with a real HandlerContext and the same interceptors and
 * request gate the adapter's router gets (`routes` and the router options are shared, so
 * per-service options apply exactly as in connect-es: they replace the router's). No synthesized
 * HTTP request, no second encoding: measured well above a trivial Connect handler's throughput
 * where the router hop stays below it (STYLE.md "Choices to weigh").
 *
 * `invokeUnaryImplementation` is marked private in connect-es: the version is pinned by
 * package-lock, and test/transcode/rest-wire.test.ts replays every wire case over this dispatch
 * and the public-API router dispatch, so an upgrade that changes it fails loudly.
 */
export function createImplementationDispatch(options: ImplementationDispatchOptions): Dispatch {
  const { routes, ...routerOptions } = options;
  const registered = new Map<DescMethod, Registered>();
  const add = (spec: MethodImplSpec, extra: ConnectRouterOptions | undefined) => {
    // Streaming methods have no http rule the route table accepts; only unary ones are kept.
    if (spec.kind === "unary") registered.set(spec.method, { spec, options: { ...routerOptions, ...extra } });
  };
  const recorder: ConnectRouter = {
    handlers: [],
    service(service: DescService, implementation, extra) {
      for (const spec of Object.values(createServiceImplSpec(service, implementation).methods)) add(spec, extra);
      return recorder;
    },
    rpc(method, implementation, extra) {
      add(createMethodImplSpec(method, implementation), extra);
      return recorder;
    },
  };
  routes(recorder);
  // Aborting with a reason of our own: without one, every call would build a DOMException
  // (with a stack trace) just to release the context's signal, measured at ~10% of a call.
  const completed = new ConnectError("call completed", Code.Canceled);

  const run = async (call: DispatchCall): Promise<DispatchResult> => {
    const { spec, options: opt } = registered.get(call.route.method) as Registered;
    const req = call.httpRequest;
    const init = {
      service: spec.method.parent,
      method: spec.method,
      // Interceptors see the client's real method and URL; kRestCall tells them it is REST.
      protocolName: "rest",
      requestMethod: req.method ?? "GET",
      url: `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`,
      requestHeader: headersOf(req),
      ...(call.contextValues === undefined ? {} : { contextValues: call.contextValues }),
    };
    const context =
      opt.shutdownSignal === undefined
        ? restHandlerContext(init)
        : createHandlerContext({ ...init, shutdownSignal: opt.shutdownSignal });
    // No requestSignal: one AbortController fewer per call; a client that goes away aborts the
    // context directly.
    onClientGone(call.httpResponse, (reason) => context.abort(reason));
    try {
      if (opt.requestGate !== undefined) await opt.requestGate(context);
      const message = await invokeUnaryImplementation(spec, context, call.request, opt.interceptors ?? []);
      return { ok: true, message, header: responseHeaders(context.responseHeader, context.responseTrailer) };
    } catch (error) {
      const header = responseHeaders(context.responseHeader, context.responseTrailer);
      // As connect-es does for its protocols: an error's own metadata travels as headers.
      if (error instanceof ConnectError) {
        error.metadata.forEach((value, name) => {
          header.append(name, value);
        });
      }
      return { ok: false, error, header };
    } finally {
      context.abort(completed);
    }
  };
  return { methods: new Set(registered.keys()), call: run };
}

function headersOf(req: DispatchCall["httpRequest"]): Headers {
  const header = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) for (const v of value) header.append(name, v);
    else header.set(name, value);
  }
  return header;
}

// Unary REST has no trailers: the implementation's trailers join its headers.
function responseHeaders(header: Headers, trailer: Headers): Headers {
  let merged: Headers | undefined;
  trailer.forEach((value, name) => {
    merged ??= new Headers(header);
    merged.append(name, value);
  });
  return merged ?? header;
}

type RestContextInit = Pick<HandlerContext, "service" | "method" | "protocolName" | "requestMethod" | "url"> & {
  requestHeader: Headers;
  contextValues?: ContextValues;
};

/**
 * The HandlerContext of a REST call when nothing links its signal to another (the router gives
 * this dispatch no shutdown signal, and REST carries no timeout): what createHandlerContext
 * makes then, with one AbortController, aborted only if the client goes away. createHandlerContext
 * makes a deadline controller and a linked one with their listeners, copies the request headers
 * again, and needs an abort with its event at the end to release them: about 12 % of a cached
 * funding:get's samples (docs/performance.md).
 */
function restHandlerContext(init: RestContextInit): HandlerContext & { abort(reason?: unknown): void } {
  const controller = new AbortController();
  return {
    ...init,
    signal: controller.signal,
    timeoutMs: () => undefined,
    responseHeader: new Headers(),
    responseTrailer: new Headers(),
    values: init.contextValues ?? createContextValues(),
    abort: (reason) => controller.abort(reason),
  };
}
