import { EventEmitter } from "node:events";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, createContextValues, type HandlerContext } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { GetPublicFundingRequestSchema } from "../../gen/encore/campaign/v1/public_pb.js";
import { createDispatch, type DispatchCall } from "../../src/transcode/dispatch.js";

// What the REST dispatch gives the implementation, and when its call's signal aborts: when the
// client goes away, and with the shutdown signal, as connect-es's own handlers do.
const method = CampaignService.method.getPublicFunding;

// An implementation that answers only once its call is aborted, failing with the reason.
const waitsForAbort = (router: ConnectRouter) =>
  router.rpc(
    method,
    (_req, ctx) =>
      new Promise((_, reject) => {
        if (ctx.signal.aborted) reject(ctx.signal.reason);
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
      }),
  );

function call(headers: Record<string, string | string[]> = {}) {
  const httpResponse = Object.assign(new EventEmitter(), { writableFinished: false });
  const dispatchCall = {
    method,
    request: create(GetPublicFundingRequestSchema, { campaignKey: "k" }),
    httpRequest: { method: "POST", url: "/v1/public/funding:get", headers: { host: "h", ...headers } },
    contextValues: createContextValues(),
    httpResponse,
  } as unknown as DispatchCall;
  return { dispatchCall, httpResponse };
}

describe("createDispatch", () => {
  it("gives the implementation the client's method, URL and headers (no HTTP/2 pseudo-headers)", async () => {
    let seen: HandlerContext | undefined;
    const dispatch = createDispatch({
      routes: (router) =>
        router.rpc(method, (_req, ctx) => {
          seen = ctx;
          ctx.responseHeader.set("x-answer", "42");
          ctx.responseTrailer.set("x-trailer", "t");
          return { funded: true };
        }),
    });
    const { dispatchCall } = call({ ":path": "/v1/public/funding:get", "x-game": "g", "x-many": ["a", "b"] });
    const result = await dispatch.call(dispatchCall);
    expect(result.ok && result.message).toMatchObject({ funded: true });
    expect(Object.fromEntries(result.header)).toEqual({ "x-answer": "42", "x-trailer": "t" });
    expect(seen).toMatchObject({ protocolName: "rest", requestMethod: "POST", url: "http://h/v1/public/funding:get" });
    expect(Object.fromEntries(seen?.requestHeader ?? [])).toEqual({ host: "h", "x-game": "g", "x-many": "a, b" });
    expect(seen?.values).toBe(dispatchCall.contextValues);
  });

  it("answers an error with its metadata as headers", async () => {
    const dispatch = createDispatch({
      routes: (router) =>
        router.rpc(method, () => {
          throw new ConnectError("slow down", Code.ResourceExhausted, { "retry-after": "3" });
        }),
    });
    const result = await dispatch.call(call().dispatchCall);
    expect(result.ok).toBe(false);
    expect(result.header.get("retry-after")).toBe("3");
  });

  it("aborts the call when the client goes away", async () => {
    const dispatch = createDispatch({ routes: waitsForAbort });
    const { dispatchCall, httpResponse } = call();
    const result = dispatch.call(dispatchCall);
    httpResponse.emit("close");
    const settled = await result;
    expect(settled.ok).toBe(false);
    expect(settled.ok ? undefined : ConnectError.from(settled.error).code).toBe(Code.Canceled);
  });

  it("aborts with the shutdown signal, already aborted or aborted during the call", async () => {
    const before = new AbortController();
    before.abort(new Error("shut down before"));
    const early = await createDispatch({ routes: waitsForAbort, shutdownSignal: before.signal }).call(
      call().dispatchCall,
    );
    expect(early.ok ? undefined : early.error).toBe(before.signal.reason);

    const during = new AbortController();
    const dispatch = createDispatch({ routes: waitsForAbort, shutdownSignal: during.signal });
    const result = dispatch.call(call().dispatchCall);
    during.abort(new Error("shut down during"));
    const late = await result;
    expect(late.ok ? undefined : late.error).toBe(during.signal.reason);
  });

  it("runs a service's own interceptors in place of the adapter's, as a router does", async () => {
    const seen: string[] = [];
    const dispatch = createDispatch({
      interceptors: [
        (next) => (req) => {
          seen.push("adapter");
          return next(req);
        },
      ],
      routes: (router) =>
        router.service(
          CampaignService,
          { getPublicFunding: () => ({}) },
          {
            interceptors: [
              (next) => (req) => {
                seen.push("service");
                return next(req);
              },
            ],
          },
        ),
    });
    await dispatch.call(call().dispatchCall);
    expect(seen).toEqual(["service"]);
  });
});
