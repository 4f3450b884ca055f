import type { DescMethod, Message } from "@bufbuild/protobuf";
import {
  ConnectError,
  type ConnectRouter,
  type ContextValues,
  createMethodImplSpec,
  createServiceImplSpec,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { invokeUnaryImplementation } from "@connectrpc/connect/protocol";
import { onClientGone, type RestRequest, type RestResponse } from "./respond.js";

export interface DispatchOptions {
  /** The same function given to connectNodeAdapter's `routes`: registers the implementations. */
  readonly routes: (router: ConnectRouter) => void;
  /** The adapter's interceptors, run first to last; a service's own option replaces them, as in a router. */
  readonly interceptors?: Interceptor[];
  /** As the adapter's: aborts the signal of every call in progress. */
  readonly shutdownSignal?: AbortSignal;
}

export interface DispatchCall {
  readonly method: DescMethod;
  readonly request: Message;
  readonly httpRequest: RestRequest;
  readonly contextValues: ContextValues;
  /** The reply being written: its early "close" means the client went away. */
  readonly httpResponse: RestResponse;
}

/** Headers are the implementation's and interceptors' response headers and trailers. */
export type DispatchResult =
  | { readonly ok: true; readonly message: Message; readonly header: Headers }
  | { readonly ok: false; readonly error: unknown; readonly header: Headers };

export interface Dispatch {
  /** Unary methods registered by `routes`: a route to any other method fails start-up. */
  readonly methods: ReadonlySet<DescMethod>;
  call(call: DispatchCall): Promise<DispatchResult>;
}

type UnarySpec = MethodImplSpec & { kind: "unary" };

/**
 * Runs a REST call as connect-es's own protocol handlers run a unary call: a HandlerContext
 * (restContext below), the implementation behind the interceptors by `invokeUnaryImplementation`
 * (STYLE.md "Choices to weigh": one decode and one encode, no Connect request in between). The
 * latter is marked internal in connect-es: the version is pinned and
 * test/transcode/connect-exports.unit.test.ts fails if its shape changes (docs/architecture.md
 * "Exceptions").
 */
export function createDispatch(options: DispatchOptions): Dispatch {
  const registered = new Map<DescMethod, { spec: UnarySpec; interceptors: Interceptor[] }>();
  const add = (spec: MethodImplSpec, extra: { interceptors?: Interceptor[] } | undefined) => {
    // Streaming methods have no http rule the route table accepts; only unary ones are kept.
    if (spec.kind === "unary") {
      registered.set(spec.method, { spec, interceptors: extra?.interceptors ?? options.interceptors ?? [] });
    }
  };
  const recorder: ConnectRouter = {
    handlers: [],
    service(service, implementation, extra) {
      for (const spec of Object.values(createServiceImplSpec(service, implementation).methods)) add(spec, extra);
      return recorder;
    },
    rpc(method, implementation, extra) {
      add(createMethodImplSpec(method, implementation), extra);
      return recorder;
    },
  };
  options.routes(recorder);
  // Calls in progress, aborted together at shutdown by one listener on the shutdown signal.
  const inProgress = new Set<RestContext>();
  options.shutdownSignal?.addEventListener(
    "abort",
    () => {
      for (const context of inProgress) context.abort(options.shutdownSignal?.reason);
    },
    { once: true },
  );
  const call = async ({ method, request, httpRequest, contextValues, httpResponse }: DispatchCall) => {
    const { spec, interceptors } = registered.get(method) as { spec: UnarySpec; interceptors: Interceptor[] };
    const context = restContext(method, httpRequest, contextValues);
    if (options.shutdownSignal?.aborted) context.abort(options.shutdownSignal.reason);
    inProgress.add(context);
    onClientGone(httpResponse, context.abort);
    try {
      const message = await invokeUnaryImplementation(spec, context, request, interceptors);
      return { ok: true, message, header: appendAll(context.responseHeader, context.responseTrailer) } as const;
    } catch (error) {
      context.abort(error);
      const header = appendAll(context.responseHeader, context.responseTrailer);
      // As connect-es answers for its protocols: an error's own metadata travels as headers.
      if (error instanceof ConnectError) appendAll(header, error.metadata);
      return { ok: false, error, header } as const;
    } finally {
      inProgress.delete(context);
    }
  };
  return { methods: new Set(registered.keys()), call };
}

type RestContext = HandlerContext & { abort(reason: unknown): void };

/**
 * A REST call's HandlerContext, as connect-es's `createHandlerContext` makes one for its own
 * protocols but with a signal of its own alone: that function links each call's signal to a
 * deadline's with AbortSignal listeners, and on Node 20 a listener costs more than the rest of a
 * cached read's dispatch (docs/performance.md "REST calls' context"). A REST call has no deadline; its
 * signal aborts when its client goes away, at shutdown or when it fails, not when it succeeds (an
 * abort's event costs as much again, and nothing of ours listens to a finished call). Typed as
 * connect-es's exported HandlerContext, so a member it adds fails the build.
 */
function restContext(method: DescMethod, httpRequest: DispatchCall["httpRequest"], values: ContextValues): RestContext {
  const controller = new AbortController();
  return {
    service: method.parent,
    method,
    signal: controller.signal,
    timeoutMs: () => undefined,
    protocolName: "rest",
    // Interceptors and the implementation see the client's own method and URL.
    requestMethod: httpRequest.method ?? "GET",
    url: `http://${httpRequest.headers.host ?? "localhost"}${httpRequest.url ?? "/"}`,
    requestHeader: new Headers(headerEntries(httpRequest)),
    responseHeader: new Headers(),
    responseTrailer: new Headers(),
    values,
    abort: (reason) => {
      if (!controller.signal.aborted) controller.abort(reason);
    },
  };
}

// Node's header object as the entries a Headers is made of, without HTTP/2's pseudo-headers.
function headerEntries(req: DispatchCall["httpRequest"]): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) for (const v of value) entries.push([name, v]);
    else entries.push([name, value]);
  }
  return entries;
}

// Unary REST has no trailers: the implementation's trailers join its headers.
function appendAll(header: Headers, more: Headers): Headers {
  more.forEach((value, name) => {
    header.append(name, value);
  });
  return header;
}
