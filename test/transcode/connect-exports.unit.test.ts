import { readFileSync } from "node:fs";
import { create } from "@bufbuild/protobuf";
import {
  createContextValues,
  createHandlerContext,
  createMethodImplSpec,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { invokeUnaryImplementation } from "@connectrpc/connect/protocol";
import { describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { GetPublicFundingRequestSchema, PublicFundingSchema } from "../../gen/encore/campaign/v1/public_pb.js";

// The REST dispatch (src/transcode/dispatch.ts) calls `invokeUnaryImplementation`, which connect-es
// exports but marks internal: these are the parts of it the dispatch relies on
// (docs/architecture.md "Exceptions"). Fails when an upgrade changes them.
const method = CampaignService.method.getPublicFunding;
const request = create(GetPublicFundingRequestSchema, { campaignKey: "k" });

function context(header: Record<string, string> = {}) {
  return createHandlerContext({
    service: CampaignService,
    method,
    protocolName: "rest",
    requestMethod: "POST",
    url: "http://h/v1/public/funding:get",
    requestHeader: header,
    contextValues: createContextValues(),
  });
}

describe("connect-es's invokeUnaryImplementation, as the REST dispatch uses it", () => {
  it("is the pinned version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(pkg.dependencies["@connectrpc/connect"]).toBe("2.2.0");
    expect(pkg.dependencies["@connectrpc/connect-node"]).toBe("2.1.2");
  });

  it("runs the interceptors first to last around the implementation and answers the output message", async () => {
    const seen: string[] = [];
    const named =
      (name: string): Interceptor =>
      (next) =>
      async (req) => {
        seen.push(`${name} in`);
        const res = await next(req);
        seen.push(`${name} out`);
        return res;
      };
    const spec = createMethodImplSpec(method, () => {
      seen.push("implementation");
      return { funded: true };
    }) as MethodImplSpec & { kind: "unary" };
    const output = await invokeUnaryImplementation(spec, context(), request, [named("first"), named("second")]);
    expect(output).toEqual(create(PublicFundingSchema, { funded: true }));
    expect(seen).toEqual(["first in", "second in", "implementation", "second out", "first out"]);
  });

  it("gives the implementation what an interceptor passed on, and keeps the response headers in the context", async () => {
    let seen: { campaignKey: string; header: string | null; values: unknown } | undefined;
    const rewrite: Interceptor = (next) => (req) => {
      if (req.stream) return next(req);
      const header = new Headers(req.header);
      header.set("x-extra", "yes");
      return next({ ...req, header, message: create(GetPublicFundingRequestSchema, { campaignKey: "rewritten" }) });
    };
    const spec = createMethodImplSpec(method, (req, ctx: HandlerContext) => {
      seen = { campaignKey: req.campaignKey, header: ctx.requestHeader.get("x-extra"), values: ctx.values };
      ctx.responseHeader.set("x-answer", "42");
      return create(PublicFundingSchema);
    }) as MethodImplSpec & { kind: "unary" };
    const ctx = context({ "x-game": "g" });
    await invokeUnaryImplementation(spec, ctx, request, [rewrite]);
    expect(seen).toEqual({ campaignKey: "rewritten", header: "yes", values: ctx.values });
    expect(ctx.responseHeader.get("x-answer")).toBe("42");
  });
});
