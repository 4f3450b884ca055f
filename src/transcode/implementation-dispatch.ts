import type { DescMethod, DescService } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  type ConnectRouterOptions,
  createMethodImplSpec,
  createServiceImplSpec,
  type MethodImplSpec,
} from "@connectrpc/connect";
import type { Dispatch, DispatchCall, DispatchResult } from "./dispatch.js";
import { onClientGone } from "./respond.js";
import { RestCallContext } from "./rest-call-context.js";
import { chainUnary, type UnaryChain, unaryRequest } from "./unary-chain.js";

export interface ImplementationDispatchOptions extends ConnectRouterOptions {
  /** The same function given to connectNodeAdapter's `routes`: registers the implementations. */
  readonly routes: (router: ConnectRouter) => void;
}

interface Registered {
  readonly spec: MethodImplSpec & { kind: "unary" };
  readonly options: ConnectRouterOptions;
  /** The implementation behind its interceptors, chained once rather than per call. */
  readonly chain: UnaryChain;
}

/**
 * Runs the implementation in-process with a real HandlerContext and the same interceptors and
 * request gate the adapter's router gets (`routes` and the router options are shared, so
 * per-service options apply exactly as in connect-es: they replace the router's). No synthesized
 * HTTP request, no second encoding: measured well above a trivial Connect handler's throughput
 * where the router hop stays below it (STYLE.md "Choices to weigh").
 *
 * The interceptors are chained once per method (unary-chain.ts) and the context makes its
 * signal and header copy only when read (rest-call-context.ts); test/transcode/rest-wire.test.ts
 * replays every wire case over this dispatch and the public-API router dispatch, so the two
 * stay the same to a caller and to an interceptor.
 */
export function createImplementationDispatch(options: ImplementationDispatchOptions): Dispatch {
  const { routes, ...routerOptions } = options;
  const registered = new Map<DescMethod, Registered>();
  const add = (spec: MethodImplSpec, extra: ConnectRouterOptions | undefined) => {
    // Streaming methods have no http rule the route table accepts; only unary ones are kept.
    if (spec.kind !== "unary") return;
    const opt = { ...routerOptions, ...extra };
    registered.set(spec.method, { spec, options: opt, chain: chainUnary(spec, opt.interceptors) });
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
    const { spec, options: opt, chain } = registered.get(call.route.method) as Registered;
    const context = new RestCallContext({
      service: spec.method.parent,
      method: spec.method,
      httpRequest: call.httpRequest,
      contextValues: call.contextValues,
    });
    onClientGone(call.httpResponse, (reason) => context.abort(reason));
    const unlink = opt.shutdownSignal && linkShutdown(opt.shutdownSignal, context);
    try {
      if (opt.requestGate !== undefined) await opt.requestGate(context);
      const response = await chain(unaryRequest(context, spec, call.request));
      return { ok: true, message: response.message, header: responseHeaders(response.header, response.trailer) };
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
      unlink?.();
      context.abort(completed);
    }
  };
  return { methods: new Set(registered.keys()), call: run };
}

/** As createHandlerContext links them: a router's shutdown signal aborts its calls. Returns the unlink. */
function linkShutdown(shutdown: AbortSignal, context: RestCallContext): () => void {
  const abort = () => context.abort(shutdown.reason);
  if (shutdown.aborted) abort();
  else shutdown.addEventListener("abort", abort, { once: true });
  return () => shutdown.removeEventListener("abort", abort);
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
