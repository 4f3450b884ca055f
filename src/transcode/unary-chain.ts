import { create, type DescMethod, type DescService, type Message } from "@bufbuild/protobuf";
import type {
  ContextValues,
  HandlerContext,
  Interceptor,
  MethodImplSpec,
  UnaryRequest,
  UnaryResponse,
} from "@connectrpc/connect";
import type { RestCallContext } from "./rest-call-context.js";

type UnarySpec = MethodImplSpec & { kind: "unary" };
export type UnaryChain = (request: UnaryRequest) => Promise<UnaryResponse>;

const kCall = Symbol("rest call context");

/**
 * The request the interceptors see. Its header, signal and URL are the call context's, made
 * only when read (prototype getters: object literals with getters of their own measured ~25 µs
 * a call slower, docs/performance.md). The context rides under a symbol, so an interceptor's
 * copy (`next({ ...req, message })`) still carries it; the chain turns such a copy back into a
 * RestUnaryRequest before the next step, keeping whatever the copy set.
 */
class RestUnaryRequest implements UnaryRequest {
  readonly stream = false;
  readonly [kCall]: RestCallContext;
  readonly #header: Headers | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #url: string | undefined;

  constructor(
    call: RestCallContext,
    readonly message: Message,
    readonly method: DescMethod & { methodKind: "unary" },
    readonly service: DescService,
    readonly requestMethod: string,
    readonly contextValues: ContextValues,
    set: { header?: Headers; signal?: AbortSignal; url?: string } = {},
  ) {
    this[kCall] = call;
    this.#header = set.header;
    this.#signal = set.signal;
    this.#url = set.url;
  }

  get header(): Headers {
    return this.#header ?? this[kCall].requestHeader;
  }

  get signal(): AbortSignal {
    return this.#signal ?? this[kCall].signal;
  }

  get url(): string {
    return this.#url ?? this[kCall].url;
  }
}

/** The first request of a call's chain. */
export function unaryRequest(call: RestCallContext, spec: UnarySpec, message: Message): UnaryRequest {
  return new RestUnaryRequest(call, message, spec.method, spec.method.parent, call.requestMethod, call.values);
}

function asRestRequest(request: UnaryRequest): RestUnaryRequest {
  if (request instanceof RestUnaryRequest) return request;
  const copy = request as UnaryRequest & { [kCall]: RestCallContext };
  return new RestUnaryRequest(
    copy[kCall],
    copy.message,
    copy.method,
    copy.service,
    copy.requestMethod,
    copy.contextValues,
    copy,
  );
}

/**
 * A unary method's implementation behind its interceptors, first to last, as connect-es's
 * `applyInterceptors` wraps them but once per method rather than once per call: interceptors
 * are `(next) => (req) => ...`, so the chain holds nothing of any one call.
 */
export function chainUnary(spec: UnarySpec, interceptors: readonly Interceptor[] | undefined): UnaryChain {
  const implementation = async (request: RestUnaryRequest): Promise<UnaryResponse> => {
    const call = request[kCall];
    const output = await spec.impl(request.message, new ImplementationContext(call, request));
    return {
      stream: false,
      message: create(spec.method.output, output) as Message,
      method: spec.method,
      service: request.service,
      header: call.responseHeader,
      trailer: call.responseTrailer,
    };
  };
  let next: UnaryChain = (request) => implementation(asRestRequest(request));
  for (const interceptor of [...(interceptors ?? [])].reverse()) {
    const inner = interceptor(next as never) as UnaryChain;
    next = (request) => inner(asRestRequest(request));
  }
  return next;
}

/** What the implementation sees: the call's context, with what the interceptors passed on. */
class ImplementationContext implements HandlerContext {
  readonly #call: RestCallContext;
  readonly #request: RestUnaryRequest;

  constructor(call: RestCallContext, request: RestUnaryRequest) {
    this.#call = call;
    this.#request = request;
  }

  get service(): DescService {
    return this.#request.service;
  }
  get method(): DescMethod {
    return this.#call.method;
  }
  get protocolName(): string {
    return this.#call.protocolName;
  }
  get requestMethod(): string {
    return this.#request.requestMethod;
  }
  get url(): string {
    return this.#request.url;
  }
  get signal(): AbortSignal {
    return this.#request.signal;
  }
  get requestHeader(): Headers {
    return this.#request.header;
  }
  get responseHeader(): Headers {
    return this.#call.responseHeader;
  }
  get responseTrailer(): Headers {
    return this.#call.responseTrailer;
  }
  get values(): ContextValues {
    return this.#request.contextValues;
  }
  timeoutMs(): undefined {
    return undefined;
  }
}
