import { create } from "@bufbuild/protobuf";
import {
  createContextValues,
  createMethodImplSpec,
  type HandlerContext,
  type Interceptor,
  type MethodImpl,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { GetPublicFundingRequestSchema, PublicFundingSchema } from "../../gen/encore/campaign/v1/public_pb.js";
import type { DispatchCall } from "../../src/transcode/dispatch.js";
import { RestCallContext } from "../../src/transcode/rest-call-context.js";
import { chainUnary, unaryRequest } from "../../src/transcode/unary-chain.js";

const method = CampaignService.method.getPublicFunding;

function callContext(headers: Record<string, string> = {}) {
  const httpRequest = { method: "POST", url: "/v1/public/funding:get", headers: { host: "game.example", ...headers } };
  return new RestCallContext({
    service: CampaignService,
    method,
    httpRequest: httpRequest as unknown as DispatchCall["httpRequest"],
    contextValues: createContextValues(),
  });
}

type UnarySpec = MethodImplSpec & { kind: "unary" };
const unarySpec = (impl: MethodImpl<typeof method>): UnarySpec => createMethodImplSpec(method, impl) as UnarySpec;

const funded = create(PublicFundingSchema, { funded: true });
const request = create(GetPublicFundingRequestSchema, { campaignKey: "k" });

describe("RestCallContext", () => {
  it("copies the request's headers and names its URL when read", () => {
    const context = callContext({ authorization: "Bearer t" });
    expect(context.requestHeader.get("authorization")).toBe("Bearer t");
    expect(context.requestHeader).toBe(context.requestHeader);
    expect(context.url).toBe("http://game.example/v1/public/funding:get");
    expect(context.requestMethod).toBe("POST");
    expect(context.protocolName).toBe("rest");
  });

  it("aborts a signal already read", () => {
    const context = callContext();
    const signal = context.signal;
    const reason = new Error("client went away");
    context.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it("gives a signal read after the abort the first reason, already aborted", () => {
    const context = callContext();
    const first = new Error("client went away");
    context.abort(first);
    context.abort(new Error("call completed"));
    expect(context.signal.aborted).toBe(true);
    expect(context.signal.reason).toBe(first);
  });
});

describe("chainUnary", () => {
  it("runs the interceptors first to last around the implementation, chaining them once", async () => {
    const seen: string[] = [];
    let chained = 0;
    const named =
      (name: string): Interceptor =>
      (next) => {
        chained++;
        return async (req) => {
          seen.push(`${name} in`);
          const res = await next(req);
          seen.push(`${name} out`);
          return res;
        };
      };
    const spec = unarySpec(() => {
      seen.push("implementation");
      return funded;
    });
    const chain = chainUnary(spec, [named("first"), named("second")]);
    for (let i = 0; i < 3; i++) {
      const res = await chain(unaryRequest(callContext(), spec, request));
      expect(res.message).toBe(funded);
    }
    expect(chained).toBe(2);
    expect(seen.slice(0, 5)).toEqual(["first in", "second in", "implementation", "second out", "first out"]);
  });

  it("gives the implementation the call's headers, signal and values", async () => {
    let seen: HandlerContext | undefined;
    const spec = unarySpec((_req, ctx) => {
      seen = ctx;
      ctx.responseHeader.set("x-answer", "42");
      return { funded: false };
    });
    const context = callContext({ "x-game": "g" });
    const res = await chainUnary(spec, [])(unaryRequest(context, spec, request));
    expect(res.message.$typeName).toBe(PublicFundingSchema.typeName);
    expect(res.header.get("x-answer")).toBe("42");
    expect(seen?.requestHeader.get("x-game")).toBe("g");
    expect(seen?.values).toBe(context.values);
    expect(seen?.url).toBe("http://game.example/v1/public/funding:get");
    context.abort(new Error("client went away"));
    expect(seen?.signal.aborted).toBe(true);
  });

  it("keeps an interceptor's copy of the request whole: its changes, and the call's headers and signal", async () => {
    const seen: { campaignKey?: string; header?: string | null; extra?: string | null; aborted?: boolean } = {};
    const rewrite: Interceptor = (next) => (req) =>
      req.stream
        ? next(req)
        : next({ ...req, message: create(GetPublicFundingRequestSchema, { campaignKey: "rewritten" }) });
    const replaceHeaders: Interceptor = (next) => (req) => {
      if (req.stream) return next(req);
      const header = new Headers(req.header);
      header.set("x-extra", "yes");
      return next({ ...req, header });
    };
    const look: Interceptor = (next) => (req) => {
      seen.aborted = req.signal.aborted;
      return next(req);
    };
    const spec = unarySpec((req, ctx) => {
      seen.campaignKey = req.campaignKey;
      seen.header = ctx.requestHeader.get("x-game");
      seen.extra = ctx.requestHeader.get("x-extra");
      return funded;
    });
    const chain = chainUnary(spec, [rewrite, look, replaceHeaders]);
    await chain(unaryRequest(callContext({ "x-game": "g" }), spec, request));
    expect(seen).toEqual({ campaignKey: "rewritten", header: "g", extra: "yes", aborted: false });
  });
});
