import { createRegistry, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { bindRequest } from "../../src/transcode/bind-request.js";
import { createRouteTable } from "../../src/transcode/route-table.js";
import { fakeQueryService } from "./support/query-service.js";

const table = createRouteTable([CampaignService]);
const registry = createRegistry(CampaignService.file);

function bind(method: string, url: string, body?: JsonValue) {
  const [path = "", query = ""] = url.split("?", 2);
  const m = table.match(method, path);
  if (m.kind !== "found") throw new Error(`no route for ${method} ${path}`);
  return bindRequest({ route: m.route, variables: m.variables, body, query, registry }) as unknown as Record<
    string,
    unknown
  >;
}

function bindError(method: string, url: string, body?: JsonValue): ConnectError {
  try {
    bind(method, url, body);
  } catch (e) {
    return ConnectError.from(e);
  }
  throw new Error("expected a failure");
}

describe("bindRequest", () => {
  it("body * is the whole message; unknown keys are ignored", () => {
    const req = bind("POST", "/v1/public/purchases:begin", {
      campaignKey: "k",
      offer_id: "o",
      authTicket: "t",
      extra: { x: 1 },
    });
    expect(req).toMatchObject({ campaignKey: "k", offerId: "o", authTicket: "t" });
  });

  it("body * ignores the query string and reads an absent body as {}", () => {
    expect(bind("POST", "/v1/public/funding:get?campaignKey=fromQuery")).toMatchObject({ campaignKey: "" });
  });

  it("int64 body values as strings or numbers", () => {
    expect(bind("POST", "/v1/public/purchases:complete", { orderId: "9007199254740993" })).toMatchObject({
      orderId: 9007199254740993n,
    });
    expect(bind("POST", "/v1/public/purchases:complete", { orderId: 12 })).toMatchObject({ orderId: 12n });
  });

  it("body field plus path parent plus query request_id", () => {
    const req = bind("POST", "/v1/accounts/a1/campaigns?requestId=r-1", {
      game: "games/g",
      fundingVisibility: "FUNDING_VISIBILITY_RUNWAY",
    });
    expect(req).toMatchObject({
      parent: "accounts/a1",
      requestId: "r-1",
      campaign: { game: "games/g", fundingVisibility: FundingVisibility.RUNWAY },
    });
  });

  it("nested path variable campaign.name lands in the body message", () => {
    const req = bind("PATCH", "/v1/accounts/a1/campaigns/c1?update_mask=displayName,fundingVisibility", {
      displayName: "New",
    });
    expect(req).toMatchObject({
      campaign: { name: "accounts/a1/campaigns/c1", displayName: "New" },
      updateMask: { paths: ["display_name", "funding_visibility"] },
    });
  });

  it("a path value equal to the body value is fine; a different one is refused", () => {
    expect(bind("PATCH", "/v1/accounts/a1/campaigns/c1", { name: "accounts/a1/campaigns/c1" })).toMatchObject({
      campaign: { name: "accounts/a1/campaigns/c1" },
    });
    const err = bindError("PATCH", "/v1/accounts/a1/campaigns/c1", { name: "accounts/a1/campaigns/other" });
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.rawMessage).toContain("campaign.name");
  });

  it("a body * value conflicting with the path is refused", () => {
    expect(
      bindError("POST", "/v1/accounts/a1/campaigns/c1:retryVerification", { name: "accounts/x/campaigns/y" }).code,
    ).toBe(Code.InvalidArgument);
    expect(bind("POST", "/v1/accounts/a1/campaigns/c1:retryVerification", {})).toMatchObject({
      name: "accounts/a1/campaigns/c1",
    });
  });

  it("GET query parameters: page_size, page_token, filter, in either spelling, percent-decoded", () => {
    const req = bind(
      "GET",
      "/v1/accounts/a1/campaigns?page_size=25&pageToken=abc%3D&filter=state%20%3D%20%22NEEDS_REVIEW%22&unknown=1",
    );
    expect(req).toMatchObject({
      parent: "accounts/a1",
      pageSize: 25,
      pageToken: "abc=",
      filter: 'state = "NEEDS_REVIEW"',
    });
  });

  it("query parameters never override the path", () => {
    expect(bind("GET", "/v1/accounts/a1/campaigns?parent=accounts/evil")).toMatchObject({ parent: "accounts/a1" });
  });

  it("DELETE with etag from the query", () => {
    expect(bind("DELETE", "/v1/accounts/a1/campaigns/c1?etag=%22v2%22")).toMatchObject({
      name: "accounts/a1/campaigns/c1",
      etag: '"v2"',
    });
  });

  it.each([
    ["a non-number page size", "/v1/accounts/a1/campaigns?page_size=ten"],
    ["a fractional page size", "/v1/accounts/a1/campaigns?page_size=1.5"],
    ["a repeated singular parameter", "/v1/accounts/a1/campaigns?page_size=1&page_size=2"],
  ])("refuses %s with INVALID_ARGUMENT", (_, url) => {
    expect(bindError("GET", url).code).toBe(Code.InvalidArgument);
  });

  it.each([
    ["a non-object body *", [1, 2]],
    ["a wrongly typed field", { campaignKey: 5 }],
  ])("refuses %s with INVALID_ARGUMENT", (_, body) => {
    expect(bindError("POST", "/v1/public/funding:get", body as JsonValue).code).toBe(Code.InvalidArgument);
  });

  it("enums by name or number, bools, repeated and nested parameters", () => {
    const { service, registry: reg } = fakeQueryService();
    const t = createRouteTable([service]);
    const m = t.match("GET", "/v1/q");
    if (m.kind !== "found") throw new Error("no route");
    const req = bindRequest({
      route: m.route,
      variables: m.variables,
      body: undefined,
      query:
        "flag=true&state=ACTIVE&tags=a&tags=b&big=18446744073709551615&inner.state=2&inner.flag=0&states=1&states=ACTIVE",
      registry: reg,
    }) as unknown as Record<string, unknown>;
    expect(req).toMatchObject({
      flag: true,
      state: 1,
      tags: ["a", "b"],
      big: 18446744073709551615n,
      inner: { state: 2, flag: false },
      states: [1, 1],
    });
  });
});
