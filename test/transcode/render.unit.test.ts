import { create, createRegistry } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { Campaign_State, CampaignSchema, VerificationSchema } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { CampaignService, ListCampaignsResponseSchema } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { PublicFundingSchema } from "../../gen/encore/campaign/v1/public_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { OperationSchema, Operations } from "../../gen/google/longrunning/operations_pb.js";
import { freezeMessage } from "../../src/services/freeze-message.js";
import { renderResponse, renderResponseText } from "../../src/transcode/render.js";
import { createRouteTable } from "../../src/transcode/route-table.js";
import { fakeService } from "./support/fake-service.js";

const table = createRouteTable([CampaignService, Operations]);
const registry = createRegistry(CampaignService.file, Operations.file);
const routeOf = (name: string) => {
  const route = table.routes.find((r) => r.method.name === name);
  if (route === undefined) throw new Error(name);
  return route;
};

describe("renderResponse", () => {
  it("emits implicit fields, int64 as strings, enums by name; optional absent; unset message null", () => {
    const funding = create(PublicFundingSchema, { funded: true, visibility: FundingVisibility.RUNWAY });
    expect(renderResponse(routeOf("GetPublicFunding"), funding, registry)).toEqual({
      funded: true,
      balance: null,
      visibility: "FUNDING_VISIBILITY_RUNWAY",
      purchasable: false,
      unavailableReason: "",
    });
  });

  it("keeps a set optional field even at zero, and renders set messages", () => {
    const funding = create(PublicFundingSchema, {
      runwayDays: 0n,
      balance: { currencyCode: "USD", units: 9007199254740993n },
    });
    expect(renderResponse(routeOf("GetPublicFunding"), funding, registry)).toMatchObject({
      runwayDays: "0",
      balance: { currencyCode: "USD", units: "9007199254740993", nanos: 0 },
    });
  });

  it("nulls unset message fields recursively, in lists too, and Timestamps stay strings", () => {
    const campaign = create(CampaignSchema, {
      name: "accounts/a/campaigns/c",
      state: Campaign_State.NEEDS_REVIEW,
      verification: create(VerificationSchema, { keyOwnsApp: true }),
      createTime: { seconds: 1_700_000_000n, nanos: 500_000_000 },
    });
    const json = renderResponse(routeOf("GetCampaign"), campaign, registry) as Record<string, unknown>;
    expect(json).toMatchObject({
      name: "accounts/a/campaigns/c",
      state: "NEEDS_REVIEW",
      fundingVisibility: "FUNDING_VISIBILITY_UNSPECIFIED",
      transfer: null,
      updateTime: null,
      createTime: "2023-11-14T22:13:20.500Z",
      verification: { keyOwnsApp: true, removedFromSale: false, verifyTime: null },
    });
    const list = create(ListCampaignsResponseSchema, { campaigns: [campaign, create(CampaignSchema)] });
    const listJson = renderResponse(routeOf("ListCampaigns"), list, registry) as {
      campaigns: Record<string, unknown>[];
    };
    expect(listJson.campaigns[1]).toMatchObject({ verification: null, transfer: null, createTime: null });
    expect(listJson).toMatchObject({ nextPageToken: "" });
  });

  it("leaves unset oneof members absent", () => {
    const op = create(OperationSchema, { name: "operations/1" });
    expect(renderResponse(routeOf("GetOperation"), op, registry)).toEqual({
      name: "operations/1",
      metadata: null,
      done: false,
    });
  });

  it("renders only response_body when the rule names one", () => {
    const service = fakeService({ A: { get: "/v1/x", responseBody: "name" } });
    const route = createRouteTable([service]).routes[0];
    if (route === undefined) throw new Error("no route");
    const output = create(route.method.output);
    (output as unknown as { name: string }).name = "only-me";
    expect(renderResponse(route, output, createRegistry(service.file))).toBe("only-me");
  });
});

describe("renderResponseText", () => {
  const route = routeOf("GetPublicFunding");

  it("renders what renderResponse renders", () => {
    const funding = create(PublicFundingSchema, { funded: true, balance: { currencyCode: "USD", units: 5n } });
    expect(JSON.parse(renderResponseText(route, funding, registry))).toEqual(renderResponse(route, funding, registry));
  });

  it("renders a message that can change afresh every time", () => {
    const funding = create(PublicFundingSchema, { funded: true });
    expect(JSON.parse(renderResponseText(route, funding, registry))).toMatchObject({ funded: true });
    funding.funded = false;
    expect(JSON.parse(renderResponseText(route, funding, registry))).toMatchObject({ funded: false });
  });

  it("keeps a frozen message's text, which nobody can change", () => {
    const funding = freezeMessage(create(PublicFundingSchema, { funded: true, balance: { units: 7n } }));
    const first = renderResponseText(route, funding, registry);
    expect(renderResponseText(route, funding, registry)).toBe(first);
    expect(() => {
      funding.funded = false;
    }).toThrow(TypeError);
    expect(() => {
      (funding.balance as { units: bigint }).units = 8n;
    }).toThrow(TypeError);
    expect(JSON.parse(first)).toMatchObject({ funded: true, balance: { units: "7" } });
  });
});
