import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { DOLLAR } from "../support/seed.js";
import { seedStudio, seedTokens } from "../support/seed-hosting.js";
import { mintPlayer } from "../support/seed-purchases.js";
import { TEST_OPERATOR_TOKEN } from "../support/test-server.js";
import { type MixedProject, seedMixedProject } from "../transfer/support/transfer-fixture.js";
import { expectDocumented, operations, pointer, validate } from "./openapi-document.js";

// Every operation of the checked-in OpenAPI document, called for real against a seeded service:
// the answer's status must be the one expected for that operation. Every request this file
// sends, the polls between calls and the refusals it provokes included, must be answered with a
// status the document declares for the operation it reached, and a body that validates against
// the document's schema for that status (openapi-document.ts), as a validator in proxy mode
// checks. Request bodies and query parameters are checked against the document too.

type Json = Record<string, unknown>;

/** Path parameters from a resource name: `accounts/a/campaigns/c` -> {accountsId: a, campaignsId: c}. */
function ids(...names: (string | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    if (name === undefined) continue; // not created yet: the call is not reached before it is
    const parts = name.split("/");
    for (let i = 0; i + 1 < parts.length; i += 2) out[`${parts[i]}Id`] = parts[i + 1] as string;
  }
  return out;
}

type Who = "owner" | "studio" | "operator" | "none";
interface Call {
  op: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Json;
  as: Who;
  /** The status this call must answer; 200 unless the operation can only refuse. */
  status?: number;
  /** Remembers the answer's `name` under this key, for the calls that follow. */
  keep?: string;
  after?: (body: Json) => Promise<void>;
}

describe("the OpenAPI document against the live service", () => {
  let f: PurchaseFixture;
  const tokens: Partial<Record<Who, string>> = { operator: TEST_OPERATOR_TOKEN };
  const ctx: Record<string, string> = {};
  let mixed: MixedProject;
  let shop: Awaited<ReturnType<PurchaseFixture["shop"]>>;
  let studioCampaign: string;

  beforeAll(async () => {
    // Webhook endpoints on loopback are allowed, as in test/webhooks (nothing listens there).
    f = await startPurchaseFixture({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_ADDRESSES: "loopback" });
    shop = await f.shop({ balanceNanos: 10n * DOLLAR, offer: { priceNanos: 5n * DOLLAR, creditNanos: 3n * DOLLAR } });
    tokens.owner = (await seedTokens(f.db, shop.accountId)).OWNER;
    const studio = await seedStudio(f.db);
    tokens.studio = studio.tokens.OWNER;
    studioCampaign = studio.name;
    mixed = await seedMixedProject(f.db, studio, { downRegion: "contract-down", createTime: new Date() });
    ctx.ticket = (await mintPlayer(f.sim.control, shop.appId)).ticket;
    // A second publisher key for a link made over REST (its app gets a new campaign), and a
    // third, linked beforehand, for the link the contract deletes.
    for (const which of ["B", "C"]) {
      const appId = 900_000 + Math.floor(Math.random() * 1_000_000);
      const key = `PKCONTRACT${which}${randomUUID().replaceAll("-", "").toUpperCase()}`;
      await f.sim.control.addPublisherKey(key, [{ appid: appId, name: `Contract ${which}` }]);
      ctx[`key${which}`] = key;
      ctx[`app${which}`] = String(appId);
    }
    const owner = f.server.client(CampaignService, "connect", tokens.owner);
    ctx.linkC = (
      await owner.createDistributorLink({
        parent: `accounts/${shop.accountId}`,
        distributorLink: { displayName: "C", steam: { publisherKey: ctx.keyC } },
      })
    ).name;
  });
  afterAll(() => f.close());

  const account = () => `accounts/${shop.accountId}`;
  const campaign = () => `${account()}/campaigns/${shop.campaignId}`;
  const link = () => `${account()}/distributorLinks/${shop.linkId}`;
  const usd = (units: string) => ({ currencyCode: "USD", units });
  /** A request over REST whose answer must be one the document declares (openapi-document.ts). */
  const send = async (method: string, url: string, options: { body?: unknown; as?: Who; headers?: Json } = {}) => {
    const as = options.as ?? "none";
    const headers = { ...(as === "none" ? {} : { authorization: `Bearer ${tokens[as]}` }), ...options.headers };
    const answer = await f.server.rest(method, url, options.body, headers as Record<string, string>);
    expectDocumented(method, url, answer);
    return answer;
  };
  const rest = (method: string, path: string, as: Who) => send(method, path, { as });
  const until = async (what: string, read: () => Promise<boolean>) => {
    for (let i = 0; i < 400; i++) {
      if (await read()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`never ${what}`);
  };

  const calls = (): Call[] => [
    // Public calls: anonymous (spec 5.1).
    { op: "encore.campaign.v1.CampaignService.GetPublicFunding", as: "none", body: { campaignKey: shop.campaignKey } },
    { op: "encore.campaign.v1.CampaignService.ListPublicOffers", as: "none", body: { campaignKey: shop.campaignKey } },
    {
      op: "encore.campaign.v1.CampaignService.BeginPurchase",
      as: "none",
      body: { campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: ctx.ticket as string },
      async after(body) {
        ctx.purchase = body.purchase as string;
        ctx.orderId = body.orderId as string;
        await f.sim.control.approveOrder(ctx.orderId);
      },
    },
    {
      op: "encore.campaign.v1.CampaignService.CompletePurchase",
      as: "none",
      body: {
        campaignKey: shop.campaignKey,
        purchase: ctx.purchase as string,
        orderId: ctx.orderId as string,
        authorized: true,
      },
    },
    // Accounts.
    { op: "encore.account.v1.AccountService.GetCaller", as: "owner" },
    { op: "encore.account.v1.AccountService.GetAccount", as: "owner", params: ids(account()) },
    {
      op: "encore.account.v1.AccountService.CreateApiKey",
      as: "owner",
      params: ids(account()),
      body: { displayName: "contract", role: "ROLE_VIEWER" },
      keep: "apiKey",
    },
    {
      op: "encore.account.v1.AccountService.ListApiKeys",
      as: "owner",
      params: ids(account()),
      query: { pageSize: "10" },
    },
    { op: "encore.account.v1.AccountService.DeleteApiKey", as: "owner", params: ids(ctx.apiKey) },
    {
      op: "encore.account.v1.AccountService.CreateMember",
      as: "owner",
      params: ids(account()),
      body: { email: "contract@example.com", role: "ROLE_VIEWER" },
      keep: "member",
    },
    { op: "encore.account.v1.AccountService.ListMembers", as: "owner", params: ids(account()) },
    {
      op: "encore.account.v1.AccountService.UpdateMember",
      as: "owner",
      params: ids(ctx.member),
      query: { updateMask: "role" },
      body: { role: "ROLE_BILLING" },
    },
    {
      op: "encore.operator.v1.OperatorService.CreateSession",
      as: "operator",
      body: { member: ctx.member as string, ttlSeconds: "600" },
    },
    { op: "encore.account.v1.AccountService.DeleteMember", as: "owner", params: ids(ctx.member) },
    // Webhooks (the endpoint's deliveries are read after the operator's settlement below).
    {
      op: "encore.webhook.v1.WebhookService.CreateWebhookEndpoint",
      as: "owner",
      params: ids(account()),
      body: { url: "http://127.0.0.1:9/hook", eventTypes: ["settlement.recorded"], description: "contract" },
      keep: "webhookEndpoint",
    },
    {
      op: "encore.webhook.v1.WebhookService.ListWebhookEndpoints",
      as: "owner",
      params: ids(account()),
      query: { pageSize: "5" },
    },
    { op: "encore.webhook.v1.WebhookService.GetWebhookEndpoint", as: "owner", params: ids(ctx.webhookEndpoint) },
    {
      op: "encore.webhook.v1.WebhookService.UpdateWebhookEndpoint",
      as: "owner",
      params: ids(ctx.webhookEndpoint),
      query: { updateMask: "description" },
      body: { description: "contract, updated" },
    },
    {
      op: "encore.webhook.v1.WebhookService.RotateWebhookEndpointSecret",
      as: "owner",
      params: ids(ctx.webhookEndpoint),
      body: { overlap: "3600s" },
    },
    // Hosting.
    {
      op: "encore.hosting.v1.HostingService.CreateGame",
      as: "owner",
      params: ids(account()),
      body: { displayName: "Contract game" },
      keep: "game",
    },
    { op: "encore.hosting.v1.HostingService.ListGames", as: "owner", params: ids(account()) },
    { op: "encore.hosting.v1.HostingService.GetGame", as: "owner", params: ids(ctx.game) },
    {
      op: "encore.hosting.v1.HostingService.CreateProject",
      as: "owner",
      params: ids(account()),
      body: { displayName: "Contract servers" },
      keep: "project",
    },
    { op: "encore.hosting.v1.HostingService.ListProjects", as: "owner", params: ids(account()) },
    { op: "encore.hosting.v1.HostingService.GetProject", as: "owner", params: ids(ctx.project) },
    {
      op: "encore.hosting.v1.HostingService.CreateResource",
      as: "owner",
      params: ids(ctx.project),
      body: {
        displayName: "Match server",
        kind: "KIND_SERVER",
        region: "eu-west",
        game: ctx.game as string,
        hourlyPrice: usd("1"),
      },
      keep: "resource",
    },
    { op: "encore.hosting.v1.HostingService.ListResources", as: "owner", params: ids(ctx.project) },
    { op: "encore.hosting.v1.HostingService.GetResource", as: "owner", params: ids(ctx.resource) },
    { op: "encore.hosting.v1.HostingService.DeleteResource", as: "owner", params: ids(ctx.resource) },
    // Billing.
    {
      op: "encore.billing.v1.BillingService.CreateCheckoutSession",
      as: "owner",
      params: ids(account()),
      query: { requestId: randomUUID() },
      // Credit is bought for a campaign's top-up-only project (spec 2.6).
      body: { project: `${account()}/projects/${shop.projectId}`, amount: usd("10") },
      keep: "checkout",
    },
    { op: "encore.billing.v1.BillingService.GetCheckoutSession", as: "owner", params: ids(ctx.checkout) },
    {
      op: "encore.billing.v1.BillingService.ListLedgerEntries",
      as: "owner",
      params: ids(`${account()}/projects/${shop.projectId}`),
    },
    // Links and campaigns.
    {
      op: "encore.campaign.v1.CampaignService.CreateDistributorLink",
      as: "owner",
      params: ids(account()),
      body: { displayName: "Steam B", steam: { publisherKey: ctx.keyB as string } },
      keep: "linkB",
    },
    { op: "encore.campaign.v1.CampaignService.ListDistributorLinks", as: "owner", params: ids(account()) },
    { op: "encore.campaign.v1.CampaignService.GetDistributorLink", as: "owner", params: ids(ctx.linkB) },
    {
      op: "encore.campaign.v1.CampaignService.UpdateDistributorLink",
      as: "owner",
      params: ids(ctx.linkB),
      query: { updateMask: "displayName" },
      body: { displayName: "Steam B, renamed" },
    },
    { op: "encore.campaign.v1.CampaignService.ListListings", as: "owner", params: ids(ctx.linkB) },
    { op: "encore.campaign.v1.CampaignService.ListSettlements", as: "owner", params: ids(link()) },
    {
      op: "encore.campaign.v1.CampaignService.CreateCampaign",
      as: "owner",
      params: ids(account()),
      body: {
        displayName: "Contract campaign",
        game: ctx.game as string,
        listing: `${ctx.linkB}/listings/${ctx.appB}`,
        fundingVisibility: "FUNDING_VISIBILITY_RUNWAY",
      },
      async after(body) {
        ctx.campaign = body.name as string;
        await until(
          "verified",
          async () => (await rest("GET", `/v1/${ctx.campaign}`, "owner")).body.state !== "STATE_VERIFYING",
        );
      },
    },
    {
      op: "encore.campaign.v1.CampaignService.ListCampaigns",
      as: "owner",
      params: ids(account()),
      query: { filter: 'state = "NEEDS_REVIEW"' },
    },
    { op: "encore.campaign.v1.CampaignService.GetCampaign", as: "owner", params: ids(ctx.campaign) },
    {
      op: "encore.campaign.v1.CampaignService.UpdateCampaign",
      as: "owner",
      params: ids(ctx.campaign),
      query: { updateMask: "displayName" },
      body: { displayName: "Contract campaign, renamed" },
    },
    {
      op: "encore.campaign.v1.CampaignService.RetryVerification",
      as: "owner",
      params: ids(ctx.campaign),
      body: {},
      async after() {
        await until(
          "verified",
          async () => (await rest("GET", `/v1/${ctx.campaign}`, "owner")).body.state !== "STATE_VERIFYING",
        );
      },
    },
    {
      op: "encore.operator.v1.OperatorService.DecideCampaign",
      as: "operator",
      params: ids(ctx.campaign),
      body: { state: "VERIFIED", explanation: "The game's servers close at the end of the month." },
    },
    { op: "encore.campaign.v1.CampaignService.GetFunding", as: "owner", params: ids(campaign()) },
    {
      op: "encore.campaign.v1.CampaignService.GetFundingHistory",
      as: "owner",
      params: ids(campaign()),
      query: { days: "3" },
    },
    {
      op: "encore.campaign.v1.CampaignService.CreateOffer",
      as: "owner",
      params: ids(campaign()),
      body: { displayName: "Ten", price: usd("10"), credit: usd("7") },
      keep: "offer",
    },
    { op: "encore.campaign.v1.CampaignService.ListOffers", as: "owner", params: ids(campaign()) },
    { op: "encore.campaign.v1.CampaignService.GetOffer", as: "owner", params: ids(ctx.offer) },
    {
      op: "encore.campaign.v1.CampaignService.UpdateOffer",
      as: "owner",
      params: ids(ctx.offer),
      query: { updateMask: "displayName" },
      body: { displayName: "Ten dollars" },
    },
    { op: "encore.campaign.v1.CampaignService.DeleteOffer", as: "owner", params: ids(ctx.offer) },
    { op: "encore.campaign.v1.CampaignService.ListPurchases", as: "owner", params: ids(campaign()) },
    {
      op: "encore.campaign.v1.CampaignService.GetPurchase",
      as: "owner",
      params: ids(`${campaign()}/purchases/${ctx.purchase}`),
    },
    // Transfers and their operations.
    {
      op: "encore.campaign.v1.CampaignService.PlanTransfer",
      as: "studio",
      params: ids(studioCampaign),
      query: { sourceProject: mixed.name },
    },
    {
      op: "encore.campaign.v1.CampaignService.StartTransfer",
      as: "studio",
      params: ids(studioCampaign),
      body: {
        sourceProject: mixed.name,
        mode: "MODE_MOVE",
        resources: [mixed.server, mixed.stoppedServer],
        acknowledgeWarnings: true,
      },
      keep: "operation",
    },
    {
      op: "google.longrunning.Operations.ListOperations",
      as: "studio",
      query: { filter: `campaign = "${studioCampaign}"` },
    },
    {
      op: "google.longrunning.Operations.GetOperation",
      as: "studio",
      params: ids(ctx.operation),
      async after() {
        // The app's transfer mover reaches the stopped server, which waits for the studio.
        await until("awaiting acknowledgement", async () => {
          const read = await rest("GET", `/v1/${ctx.operation}`, "studio");
          return read.body.metadata?.state === "STATE_AWAITING_ACKNOWLEDGEMENT";
        });
      },
    },
    {
      op: "encore.campaign.v1.CampaignService.AcknowledgeTransferItem",
      as: "studio",
      params: ids(studioCampaign),
      body: { resource: mixed.stoppedServer },
    },
    // A transfer is neither cancelled nor forgotten: these two answer UNIMPLEMENTED (501).
    {
      op: "google.longrunning.Operations.CancelOperation",
      as: "studio",
      params: ids(ctx.operation),
      body: {},
      status: 501,
    },
    { op: "google.longrunning.Operations.DeleteOperation", as: "studio", params: ids(ctx.operation), status: 501 },
    // The operator.
    {
      op: "encore.operator.v1.OperatorService.CreateAccount",
      as: "operator",
      body: { displayName: "Contract studio" },
    },
    { op: "encore.operator.v1.OperatorService.ListAccounts", as: "operator", query: { pageSize: "5" } },
    { op: "encore.operator.v1.OperatorService.ListReviews", as: "operator" },
    {
      op: "encore.operator.v1.OperatorService.SetOutstandingLimit",
      as: "operator",
      params: ids(link()),
      body: { outstandingLimit: usd("500") },
    },
    {
      op: "encore.operator.v1.OperatorService.RecordSettlement",
      as: "operator",
      params: ids(link()),
      body: { amount: usd("1"), reference: "contract", requestId: randomUUID() },
    },
    {
      op: "encore.webhook.v1.WebhookService.ListWebhookDeliveries",
      as: "owner",
      params: ids(ctx.webhookEndpoint),
      async after(body) {
        ctx.webhookDelivery = (body.webhookDeliveries as { name: string }[])[0]?.name as string;
      },
    },
    { op: "encore.webhook.v1.WebhookService.GetWebhookDelivery", as: "owner", params: ids(ctx.webhookDelivery) },
    {
      op: "encore.webhook.v1.WebhookService.RedeliverWebhookDelivery",
      as: "owner",
      params: ids(ctx.webhookDelivery),
      body: {},
    },
    { op: "encore.webhook.v1.WebhookService.DeleteWebhookEndpoint", as: "owner", params: ids(ctx.webhookEndpoint) },
    {
      op: "encore.operator.v1.OperatorService.ReconcileDistributorLink",
      as: "operator",
      params: ids(link()),
      body: {},
    },
    {
      op: "encore.operator.v1.OperatorService.ListLinkReversals",
      as: "operator",
      query: { flaggedOnly: "false" },
    },
    {
      op: "encore.operator.v1.OperatorService.ListReconciliationFindings",
      as: "operator",
      query: { pageSize: "5" },
    },
    { op: "encore.operator.v1.OperatorService.GetSettings", as: "operator" },
    {
      op: "encore.operator.v1.OperatorService.UpdateSettings",
      as: "operator",
      query: { updateMask: "allowedOrigins" },
      body: { allowedOrigins: ["https://contract.example"] },
    },
    { op: "encore.operator.v1.OperatorService.ReencryptPublisherKeys", as: "operator", body: {} },
    // The audit log of the writes above.
    {
      op: "encore.audit.v1.AuditService.ListAuditEvents",
      as: "owner",
      params: ids(account()),
      query: { pageSize: "5", filter: `resource = "${campaign()}"` },
    },
    {
      op: "encore.operator.v1.OperatorAuditService.ListAllAuditEvents",
      as: "operator",
      query: { pageSize: "5", filter: `account = "${account()}"` },
    },
    // Deletes last.
    { op: "encore.campaign.v1.CampaignService.DeleteCampaign", as: "owner", params: ids(ctx.campaign) },
    { op: "encore.campaign.v1.CampaignService.DeleteDistributorLink", as: "owner", params: ids(ctx.linkC) },
  ];

  it("names each operation once, and the calls below reach every one of them", () => {
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const called = calls().map((c) => c.op);
    expect(new Set(called).size).toBe(called.length);
    expect([...called].sort()).toEqual([...ids].sort());
  });

  it("every operation answers as documented for a real call", async () => {
    const byId = new Map(operations.map((o) => [o.operation.operationId, o]));
    const done = new Set<string>();
    // The list is rebuilt before each call: later calls use what earlier answers created.
    for (let i = 0; ; i++) {
      const call = calls()[i];
      if (call === undefined) break;
      const found = byId.get(call.op);
      if (found === undefined) throw new Error(`${call.op} is not in the document`);
      const { path, method, operation } = found;
      const where = `${call.op} (${method.toUpperCase()} ${path})`;

      // Credentials as documented: public operations declare no security and get none.
      expect(operation.security?.length === 0, `${where}: security`).toBe(call.as === "none");
      const documented = new Set(operation.parameters.map((p) => `${p.in}:${p.name}`));
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        expect(documented.has(`path:${name}`), `${where}: path parameter ${name}`).toBe(true);
        const value = call.params?.[name];
        if (value === undefined) throw new Error(`${where}: no value for {${name}}`);
        return encodeURIComponent(value);
      });
      for (const name of Object.keys(call.query ?? {})) {
        expect(documented.has(`query:${name}`), `${where}: query parameter ${name}`).toBe(true);
      }
      if (call.body !== undefined) {
        expect(operation.requestBody, `${where}: takes a body`).toBeDefined();
        const ref = `openapi.json#${pointer("", "paths", path, method, "requestBody", "content", "application/json", "schema")}`;
        expect(validate(ref, call.body), `${where}: request body`).toBeUndefined();
      }

      const query = call.query === undefined ? "" : `?${new URLSearchParams(call.query)}`;
      const answer = await send(method.toUpperCase(), `${url}${query}`, { body: call.body, as: call.as });
      const expected = call.status ?? 200;
      expect(answer.status, `${where}: ${JSON.stringify(answer.body)}`).toBe(expected);
      if (call.keep !== undefined) ctx[call.keep] = answer.body.name;
      await call.after?.(answer.body);
      done.add(call.op);
    }
    expect(done.size).toBe(operations.length);
  });

  it("an error answer validates as google.rpc.Status with its documented status", async () => {
    const missing = await send("POST", "/v1/public/funding:get", { body: { campaignKey: "ck_nope" } });
    expect(missing.status).toBe(404);
    const unauthenticated = await send("GET", `/v1/${account()}`);
    expect(unauthenticated.status).toBe(401);
    // The schema is not a rubber stamp: a body off the document is refused.
    expect(validate("openapi.json#/components/schemas/google.rpc.Status", { code: "5" })).toBeDefined();
  });

  it("declares 401 on a public operation only where a player's ticket is checked, 415 only where a body is read", () => {
    const publicAnswering401 = operations.filter(
      (o) => o.operation.security?.length === 0 && o.operation.responses["401"],
    );
    expect(publicAnswering401.map((o) => o.operation.operationId)).toEqual([
      "encore.campaign.v1.CampaignService.BeginPurchase",
    ]);
    for (const { operation } of operations) {
      expect(operation.responses["415"] !== undefined, operation.operationId).toBe(operation.requestBody !== undefined);
    }
  });

  it("declares the refusals the wire gives before a handler runs, on the operations that give them", async () => {
    // Spec 5.1: begin checks the player's ticket with the platform; a public call, yet 401.
    const begin = { campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: "DEADBEEF" };
    const stranger = await send("POST", "/v1/public/purchases:begin", { body: begin });
    expect(stranger.body).toMatchObject({
      code: 16,
      details: [expect.objectContaining({ reason: "PLAYER_NOT_AUTHENTICATED" })],
    });
    expect(stranger.status).toBe(401);
    // A body in a coding the service does not decode: 415 naming gzip, public or not.
    const brotli = { "content-encoding": "br" };
    for (const [method, url, as] of [
      ["POST", "/v1/public/funding:get", "none"],
      ["POST", `/v1/${account()}/games`, "owner"],
      ["PATCH", `/v1/operator/settings?updateMask=allowedOrigins`, "operator"],
    ] as const) {
      const coded = await send(method, url, { body: { displayName: "x" }, as, headers: brotli });
      expect(coded.status, `${method} ${url}`).toBe(415);
      expect(coded.headers.get("accept-encoding")).toBe("gzip");
    }
    // A call without a body reads none, so its Content-Encoding changes nothing.
    const read = await send("GET", `/v1/${account()}`, { as: "owner", headers: brotli });
    expect(read.status).toBe(200);
    // A body that is not JSON is 400 code 3 (spec 2.1), declared on every operation.
    const form = await send("POST", "/v1/public/funding:get", {
      body: "campaignKey=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
  });
});
