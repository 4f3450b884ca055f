import { EventEmitter } from "node:events";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, createContextValues } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { GetPublicFundingRequestSchema } from "../../gen/encore/campaign/v1/public_pb.js";
import type { DispatchCall } from "../../src/transcode/dispatch.js";
import { createImplementationDispatch } from "../../src/transcode/implementation-dispatch.js";

// The REST dispatch's call signal: made only when read (rest-call-context.ts), and still aborted
// when the client goes away or the router's shutdown signal fires, as createHandlerContext does.
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

function call() {
  const httpResponse = Object.assign(new EventEmitter(), { writableFinished: false });
  const dispatchCall = {
    route: { method },
    request: create(GetPublicFundingRequestSchema, { campaignKey: "k" }),
    httpRequest: { method: "POST", url: "/v1/public/funding:get", headers: { host: "h" } },
    contextValues: createContextValues(),
    httpResponse,
  } as unknown as DispatchCall;
  return { dispatchCall, httpResponse };
}

describe("createImplementationDispatch: a call's signal", () => {
  it("aborts when the client goes away", async () => {
    const dispatch = createImplementationDispatch({ routes: waitsForAbort });
    const { dispatchCall, httpResponse } = call();
    const result = dispatch.call(dispatchCall);
    httpResponse.emit("close");
    const settled = await result;
    expect(settled.ok).toBe(false);
    expect(settled.ok ? undefined : ConnectError.from(settled.error).code).toBe(Code.Canceled);
  });

  it("aborts with the router's shutdown signal, already aborted or aborted during the call", async () => {
    const before = new AbortController();
    before.abort(new Error("shut down before"));
    const early = await createImplementationDispatch({ routes: waitsForAbort, shutdownSignal: before.signal }).call(
      call().dispatchCall,
    );
    expect(early.ok ? undefined : early.error).toBe(before.signal.reason);

    const during = new AbortController();
    const dispatch = createImplementationDispatch({ routes: waitsForAbort, shutdownSignal: during.signal });
    const result = dispatch.call(call().dispatchCall);
    during.abort(new Error("shut down during"));
    const late = await result;
    expect(late.ok ? undefined : late.error).toBe(during.signal.reason);
  });
});
