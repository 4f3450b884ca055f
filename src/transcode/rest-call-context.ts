import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { type ContextValues, createContextValues, type HandlerContext } from "@connectrpc/connect";
import type { DispatchCall } from "./dispatch.js";

export interface RestCallInit {
  readonly service: DescService;
  readonly method: DescMethod;
  readonly httpRequest: DispatchCall["httpRequest"];
  readonly contextValues: ContextValues | undefined;
}

/**
 * The HandlerContext of one REST call, with nothing made that nobody reads. createHandlerContext
 * makes a deadline controller and a linked one with their listeners and copies the request
 * headers into a `Headers`; this makes the AbortController and the `Headers` only when the
 * signal or the headers are first read (the public reads read neither), and "releases" by
 * aborting only a signal that exists. Measured: a cached funding:get cost 76 µs of CPU with an
 * AbortController and a header copy made per call, 41 µs without (docs/performance.md).
 *
 * A client that goes away before the signal was read still aborts the call: the reason is kept
 * and the signal, when read, is born aborted with it.
 */
export class RestCallContext implements HandlerContext {
  readonly service: DescService;
  readonly method: DescMethod;
  readonly protocolName = "rest";
  readonly requestMethod: string;
  readonly responseHeader = new Headers();
  readonly responseTrailer = new Headers();
  readonly values: ContextValues;
  readonly #httpRequest: DispatchCall["httpRequest"];
  #controller: AbortController | undefined;
  #abortReason: { reason: unknown } | undefined;
  #requestHeader: Headers | undefined;

  constructor(init: RestCallInit) {
    this.service = init.service;
    this.method = init.method;
    this.#httpRequest = init.httpRequest;
    this.requestMethod = init.httpRequest.method ?? "GET";
    this.values = init.contextValues ?? createContextValues();
  }

  /** Interceptors see the client's real method and URL; kRestCall tells them it is REST. */
  get url(): string {
    const req = this.#httpRequest;
    return `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  }

  get requestHeader(): Headers {
    this.#requestHeader ??= headersOf(this.#httpRequest);
    return this.#requestHeader;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#abortReason !== undefined) this.#controller.abort(this.#abortReason.reason);
    }
    return this.#controller.signal;
  }

  /** REST carries no timeout. */
  timeoutMs(): undefined {
    return undefined;
  }

  /** Aborts the call's signal (or the signal it will have when read); the first reason wins. */
  abort(reason: unknown): void {
    this.#abortReason ??= { reason };
    this.#controller?.abort(reason);
  }
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
