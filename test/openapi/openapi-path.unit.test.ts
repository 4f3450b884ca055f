import { describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { Operations } from "../../gen/google/longrunning/operations_pb.js";
import { openApiPath } from "../../src/openapi/openapi-path.js";
import { createRouteTable } from "../../src/transcode/route-table.js";

const routes = createRouteTable([CampaignService, Operations]).routes;
const pathOf = (method: string, name: string) => {
  const route = routes.find((r) => r.httpMethod === method && r.method.name === name);
  if (route === undefined) throw new Error(`no ${method} route for ${name}`);
  return openApiPath(route);
};

describe("google.api.http templates as OpenAPI paths", () => {
  it.each([
    // A variable over several segments is spelled out, one parameter per wildcard.
    ["GET", "GetCampaign", "/v1/accounts/{accountsId}/campaigns/{campaignsId}", "name"],
    ["PATCH", "UpdateCampaign", "/v1/accounts/{accountsId}/campaigns/{campaignsId}", "campaign.name"],
    ["POST", "RetryVerification", "/v1/accounts/{accountsId}/campaigns/{campaignsId}:retryVerification", "name"],
    ["GET", "ListOffers", "/v1/accounts/{accountsId}/campaigns/{campaignsId}/offers", "parent"],
    ["GET", "GetFunding", "/v1/accounts/{accountsId}/campaigns/{campaignsId}/funding", "name"],
    ["POST", "GetPublicFunding", "/v1/public/funding:get", undefined],
    // `{name=operations}` binds a literal: no parameter at all.
    ["GET", "ListOperations", "/v1/operations", undefined],
  ])("%s %s -> %s", (method, name, path, field) => {
    const found = pathOf(method, name);
    expect(found.path).toBe(path);
    for (const p of found.parameters) expect(p.field).toBe(field);
  });

  it("says which field each parameter fills and how the whole value reads", () => {
    expect(pathOf("PATCH", "UpdateCampaign").parameters).toEqual([
      {
        name: "accountsId",
        field: "campaign.name",
        pattern: "accounts/{accountsId}/campaigns/{campaignsId}",
        rest: false,
      },
      {
        name: "campaignsId",
        field: "campaign.name",
        pattern: "accounts/{accountsId}/campaigns/{campaignsId}",
        rest: false,
      },
    ]);
    // `**` takes the rest of the path, slashes included.
    expect(pathOf("GET", "GetOperation")).toEqual({
      path: "/v1/operations/{operationsId}",
      parameters: [{ name: "operationsId", field: "name", pattern: "operations/{operationsId}", rest: true }],
    });
  });
});
