import { Agent, type Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import { ExchangeTimedOut, exchange } from "../../../src/platform/steam/http-exchange.js";

// The exchange's own rules, on a dispatcher that plays undici's part as the test says: the
// deadline holds before undici starts the request, and a request started again reads afresh.
// (Over a real socket: test/platform/steam/steam-http-deadline.test.ts and the steam client's.)

type Handler = Dispatcher.DispatchHandler;

/** What undici hands a handler for one attempt; remembers an abort. */
class Attempt implements Dispatcher.DispatchController {
  aborted = false;
  paused = false;
  reason: Error | null = null;
  abort(reason: Error) {
    this.aborted = true;
    this.reason = reason;
  }
  pause() {}
  resume() {}
}
const controller = () => new Attempt();

/** A dispatcher that hands each dispatch's handler to `play`. */
function dispatcherOf(play: (handler: Handler, options: Dispatcher.DispatchOptions) => void): Dispatcher {
  return {
    dispatch(options: Dispatcher.DispatchOptions, handler: Handler) {
      play(handler, options);
      return true;
    },
  } as unknown as Dispatcher;
}

const call = {
  url: new URL("http://steam.test/ISteamMicroTxn/QueryTxn/v3/?orderid=1"),
  method: "GET" as const,
  headers: {},
};

describe("one HTTP exchange", () => {
  it("sends the URL's path and query to its origin with the deadline as undici's own timeouts", async () => {
    let sent: Dispatcher.DispatchOptions | undefined;
    const answered = exchange(
      dispatcherOf((handler, options) => {
        sent = options;
        const c = controller();
        handler.onRequestStart?.(c, {});
        handler.onResponseStart?.(c, 200, {}, "OK");
        handler.onResponseData?.(c, Buffer.from('{"response":'));
        handler.onResponseData?.(c, Buffer.from("{}}"));
        handler.onResponseEnd?.(c, {});
      }),
      { ...call, method: "POST", body: "a=1" },
      5_000,
    );
    expect(await answered).toEqual({ status: 200, text: '{"response":{}}' });
    expect(sent).toMatchObject({
      origin: "http://steam.test",
      path: "/ISteamMicroTxn/QueryTxn/v3/?orderid=1",
      method: "POST",
      body: "a=1",
      headersTimeout: 5_000,
      bodyTimeout: 5_000,
    });
  });

  it("times out at its deadline while undici has not started the request, and aborts it when it does", async () => {
    let handler: Handler | undefined;
    const answered = exchange(
      dispatcherOf((h) => {
        handler = h;
      }),
      call,
      20,
    );
    await expect(answered).rejects.toBeInstanceOf(ExchangeTimedOut);
    const late = controller();
    handler?.onRequestStart?.(late, {});
    expect(late.aborted).toBe(true);
    expect(late.reason).toBeInstanceOf(ExchangeTimedOut);
  });

  it("aborts a started request at its deadline", async () => {
    const started = controller();
    const answered = exchange(
      dispatcherOf((handler) => handler.onRequestStart?.(started, {})),
      call,
      20,
    );
    await expect(answered).rejects.toBeInstanceOf(ExchangeTimedOut);
    expect(started.reason).toBeInstanceOf(ExchangeTimedOut);
  });

  it("reads only the attempt that completes when undici starts the request again", async () => {
    const answered = exchange(
      dispatcherOf((handler) => {
        const first = controller();
        handler.onRequestStart?.(first, {});
        handler.onResponseStart?.(first, 200, {}, "OK");
        handler.onResponseData?.(first, Buffer.from("lost half"));
        const second = controller();
        handler.onRequestStart?.(second, {});
        handler.onResponseStart?.(second, 503, {}, "Service Unavailable");
        handler.onResponseData?.(second, Buffer.from("<html>busy</html>"));
        handler.onResponseEnd?.(second, {});
      }),
      call,
      5_000,
    );
    expect(await answered).toEqual({ status: 503, text: "<html>busy</html>" });
  });

  it("rejects with what undici refuses to dispatch, which it hands the handler (a destroyed agent)", async () => {
    const agent = new Agent();
    await agent.close();
    await expect(exchange(agent, call, 5_000)).rejects.toMatchObject({ code: "UND_ERR_DESTROYED" });
  });

  it("rejects with undici's error", async () => {
    const reset = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    const answered = exchange(
      dispatcherOf((handler) => {
        const c = controller();
        handler.onRequestStart?.(c, {});
        handler.onResponseError?.(c, reset);
      }),
      call,
      5_000,
    );
    await expect(answered).rejects.toBe(reset);
  });
});
