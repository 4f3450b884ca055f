import type { Dispatcher } from "undici";

export type Exchange = {
  readonly url: URL;
  readonly method: "GET" | "POST";
  readonly headers: Record<string, string>;
  readonly body?: string;
};

export type ExchangeAnswer = { readonly status: number; readonly text: string };

/** The whole exchange outlasted its deadline; the abort reason, and what the promise rejects with. */
export class ExchangeTimedOut extends Error {
  override name = "TimeoutError";
}

/**
 * One HTTP exchange through undici's dispatcher, its answer read whole, within `timeoutMs` from
 * the call to the end of the body (connect, a queue for a connection, headers and a trickling body
 * included). Written on `dispatch` rather than `request`: a response stream, an AbortSignal and
 * its listeners a call cost twice the CPU of the exchange itself (docs/performance.md,
 * "The platform's calls").
 */
export function exchange(dispatcher: Dispatcher, call: Exchange, timeoutMs: number): Promise<ExchangeAnswer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let timedOut: ExchangeTimedOut | undefined;
    let status = 0;
    let chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      timedOut = new ExchangeTimedOut();
      controller?.abort(timedOut);
      // Answered now even when undici has not started the request (still connecting).
      reject(timedOut);
    }, timeoutMs);
    dispatcher.dispatch(
      {
        origin: call.url.origin,
        path: `${call.url.pathname}${call.url.search}`,
        method: call.method,
        headers: call.headers,
        body: call.body ?? null,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      },
      {
        onRequestStart(started) {
          if (timedOut) return started.abort(timedOut);
          controller = started;
          // Started again after a failed attempt on a kept-alive socket: nothing read counts.
          chunks = [];
        },
        onResponseStart(_, statusCode) {
          status = statusCode;
        },
        onResponseData(_, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          clearTimeout(timer);
          resolve({ status, text: Buffer.concat(chunks).toString("utf8") });
        },
        onResponseError(_, error) {
          clearTimeout(timer);
          reject(error);
        },
      },
    );
  });
}
