import { describe, expect, it } from "vitest";
import { AccountService } from "../../gen/encore/account/v1/account_service_pb.js";
import { BillingService } from "../../gen/encore/billing/v1/billing_service_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { HostingService } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { Operations } from "../../gen/google/longrunning/operations_pb.js";
import { createRouteTable } from "../../src/transcode/route-table.js";
import { fakeService } from "./support/fake-service.js";

const summary = (table: ReturnType<typeof createRouteTable>, method: string, path: string) => {
  const m = table.match(method, path);
  if (m.kind === "found") return { rpc: m.route.method.name, vars: Object.fromEntries(m.variables) };
  if (m.kind === "wrong-method") return { allowed: [...m.allowed].sort() };
  return "not-found";
};

describe("createRouteTable over the real services", () => {
  const table = createRouteTable([
    CampaignService,
    OperatorService,
    BillingService,
    HostingService,
    AccountService,
    Operations,
  ]);

  it("compiles every rule without conflicts", () => {
    expect(table.routes.length).toBeGreaterThan(CampaignService.methods.length - 1);
  });

  // A path of literals alone is looked up directly (route-table.ts): each such route must still
  // be the one its path finds, with no variables. (The same path under another method, and a
  // literal template that captures, are in the cases below and in the rules.)
  it("finds every route whose template is literals alone by its exact path", () => {
    const literal = table.routes.filter(
      (route) => route.template.variables.length === 0 && route.template.segments.every((s) => s.kind === "literal"),
    );
    expect(literal.length).toBeGreaterThanOrEqual(4);
    for (const route of literal) {
      const verb = route.template.verb === undefined ? "" : `:${route.template.verb}`;
      const path = `/${route.template.segments.map((s) => (s.kind === "literal" ? s.value : "")).join("/")}${verb}`;
      const match = table.match(route.httpMethod, path);
      expect(match).toEqual({ kind: "found", route, variables: new Map() });
    }
  });

  it.each([
    ["POST", "/v1/public/funding:get", { rpc: "GetPublicFunding", vars: {} }],
    ["POST", "/v1/public/purchases:begin", { rpc: "BeginPurchase", vars: {} }],
    ["GET", "/v1/accounts/a1/campaigns/c1", { rpc: "GetCampaign", vars: { name: "accounts/a1/campaigns/c1" } }],
    [
      "GET",
      "/v1/accounts/a1/campaigns/c1:planTransfer",
      { rpc: "PlanTransfer", vars: { name: "accounts/a1/campaigns/c1" } },
    ],
    [
      "GET",
      "/v1/accounts/a1/campaigns/c1/funding",
      { rpc: "GetFunding", vars: { name: "accounts/a1/campaigns/c1/funding" } },
    ],
    ["GET", "/v1/accounts/a1/campaigns", { rpc: "ListCampaigns", vars: { parent: "accounts/a1" } }],
    ["POST", "/v1/accounts/a1/campaigns", { rpc: "CreateCampaign", vars: { parent: "accounts/a1" } }],
    [
      "PATCH",
      "/v1/accounts/a1/campaigns/c1",
      { rpc: "UpdateCampaign", vars: { "campaign.name": "accounts/a1/campaigns/c1" } },
    ],
    ["DELETE", "/v1/accounts/a1/campaigns/c1", { rpc: "DeleteCampaign", vars: { name: "accounts/a1/campaigns/c1" } }],
    [
      "POST",
      "/v1/accounts/a1/campaigns/c1:retryVerification",
      { rpc: "RetryVerification", vars: { name: "accounts/a1/campaigns/c1" } },
    ],
    ["PUT", "/v1/accounts/a1/campaigns/c1", { allowed: ["DELETE", "GET", "PATCH"] }],
    ["GET", "/v1/public/funding:get", { allowed: ["POST"] }],
    // `**` also matches no segment: the shorter literal template must still win.
    ["GET", "/v1/operations", { rpc: "ListOperations", vars: { name: "operations" } }],
    ["GET", "/v1/operations/t1", { rpc: "GetOperation", vars: { name: "operations/t1" } }],
    ["POST", "/v1/nowhere", "not-found"],
    ["POST", "/v1/public/funding:gets", "not-found"],
    ["GET", "relative", "not-found"],
  ])("%s %s", (method, path, expected) => {
    expect(summary(table, method, path)).toEqual(expected);
  });
});

describe("createRouteTable rules", () => {
  it("prefers literals and verbs over wildcards", () => {
    const table = createRouteTable([
      fakeService({
        Deep: { get: "/v1/{name=**}" },
        Literal: { get: "/v1/things/special" },
        One: { get: "/v1/things/{id}" },
        Cancel: { post: "/v1/{name=ops/**}:cancel", body: "*" },
        AnyPost: { post: "/v1/{name=ops/**}", body: "*" },
      }),
    ]);
    expect(summary(table, "GET", "/v1/things/special")).toEqual({ rpc: "Literal", vars: {} });
    expect(summary(table, "POST", "/v1/things/special")).toEqual({ allowed: ["GET"] });
    expect(summary(table, "GET", "/v1/things/special/")).toEqual({ rpc: "Deep", vars: { name: "things/special/" } });
    expect(summary(table, "GET", "/v1/things/x")).toEqual({ rpc: "One", vars: { id: "x" } });
    expect(summary(table, "GET", "/v1/a/b/c")).toEqual({ rpc: "Deep", vars: { name: "a/b/c" } });
    expect(summary(table, "POST", "/v1/ops/1/2:cancel")).toEqual({ rpc: "Cancel", vars: { name: "ops/1/2" } });
    expect(summary(table, "POST", "/v1/ops/1/2")).toEqual({ rpc: "AnyPost", vars: { name: "ops/1/2" } });
  });

  it("serves additional_bindings and custom methods", () => {
    const table = createRouteTable([
      fakeService({
        Get: { get: "/v1/things/{id}", additionalBindings: [{ get: "/v1/{parent=users/*}/things/{id}" }] },
        Head: { custom: { kind: "head", path: "/v1/things/{id}" } },
      }),
    ]);
    expect(summary(table, "GET", "/v1/users/u/things/t")).toEqual({ rpc: "Get", vars: { parent: "users/u", id: "t" } });
    expect(summary(table, "HEAD", "/v1/things/t")).toEqual({ rpc: "Head", vars: { id: "t" } });
  });

  it.each([
    [
      "same template twice",
      { A: { get: "/v1/things/{id}" }, B: { get: "/v1/things/{name}" } },
      "conflicting http routes: GET /=v1/=things/*",
    ],
    [
      "variable covering a literal path",
      { A: { get: "/v1/{name=things/*}" }, B: { get: "/v1/things/{id}" } },
      "conflicting",
    ],
    [
      "a binding against its own method",
      { A: { post: "/v1/x", body: "*", additionalBindings: [{ post: "/v1/x", body: "*" }] } },
      "conflicting",
    ],
    ["unknown path field", { A: { get: "/v1/{nope}" } }, 'path variable "nope" names no field'],
    ["message path field", { A: { get: "/v1/{thing}" } }, "singular scalar or enum"],
    ["unknown body field", { A: { post: "/v1/x", body: "nope" } }, 'body "nope"'],
    ["unknown response_body", { A: { get: "/v1/x", responseBody: "nope" } }, 'response_body "nope"'],
    ["bad template", { A: { get: "v1/x" } }, "must start with /"],
    [
      "nested additional bindings",
      { A: { get: "/v1/x", additionalBindings: [{ get: "/v1/y", additionalBindings: [{ get: "/v1/z" }] }] } },
      "cannot nest",
    ],
  ])("throws at build time on %s", (_, rules, message) => {
    expect(() => createRouteTable([fakeService(rules)])).toThrow(message);
  });

  it("refuses streaming methods", () => {
    expect(() => createRouteTable([fakeService({ A: { get: "/v1/x" } }, "server")])).toThrow("only unary");
  });

  it("accepts the same template under different HTTP methods", () => {
    const table = createRouteTable([fakeService({ A: { get: "/v1/things/{id}" }, B: { delete: "/v1/things/{id}" } })]);
    expect(summary(table, "DELETE", "/v1/things/1")).toEqual({ rpc: "B", vars: { id: "1" } });
  });
});
