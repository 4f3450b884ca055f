import { type Client, Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { AuditEvent_ActorType, AuditService } from "../../gen/encore/audit/v1/audit_service_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { HostingService } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorAuditService } from "../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { type Harness, newAppId, newPublisherKey, startHarness } from "../management/management-fixture.js";
import { refusal } from "../support/refusal.js";
import { TEST_OPERATOR_TOKEN } from "../support/test-server.js";
import { requestIdClients } from "./audit-fixture.js";

// The audit log shows every write of a management scenario and no secret (docs/audit-log.md).
// The scenario runs over Connect (binary and JSON), gRPC, gRPC-web and REST; each call
// carries its own request id, so each expected event is found by it.

interface Expected {
  requestId: string;
  method: string;
  actorType: AuditEvent_ActorType;
  actor: string;
  resource: string;
  code: number;
  changedFields?: string[];
  /** The account whose log holds it; undefined: no account's (the operator's alone). */
  account?: string;
  /** The calls it stands for, when not 1 (failed authentications of one address and window). */
  callCount?: number;
}

describe("audit log of a management scenario", () => {
  let harness: Harness;
  const expected: Expected[] = [];
  /** Every secret the scenario used: none may appear in any column of any audit row. */
  const secrets: string[] = [TEST_OPERATOR_TOKEN];
  let account = "";
  let ownerKey = "";
  let ownerKeyName = "";
  let campaignName = "";
  let calls: ReturnType<typeof requestIdClients>;

  beforeAll(async () => {
    // A day's window: the scenario's failed authentications cannot straddle two of them.
    harness = await startHarness({ env: { RATE_LIMIT_WINDOW_SECONDS: "86400" } });
    calls = requestIdClients(harness.server, "scenario");
  });
  afterAll(() => harness.close());

  const svc = (id: string) => `encore.${id}`;

  it("records every write with actor, method, resource, fields, address, request id and outcome", async () => {
    const operator = calls.client(OperatorService, TEST_OPERATOR_TOKEN, "grpc");
    const created = await operator.createAccount({ displayName: "Audited Studio" });
    account = created.account?.name ?? "";
    ownerKey = created.apiKey?.keyString ?? "";
    ownerKeyName = created.apiKey?.name ?? "";
    secrets.push(ownerKey);
    expected.push({
      requestId: calls.last(),
      method: svc("operator.v1.OperatorService/CreateAccount"),
      actorType: AuditEvent_ActorType.OPERATOR,
      actor: "operator",
      resource: account,
      code: 0,
      changedFields: ["display_name"],
      account,
    });
    const me = { actorType: AuditEvent_ActorType.API_KEY, actor: ownerKeyName, account };

    // API keys: created (its secret in the answer only) and, at the end, deleted.
    const accounts = calls.client(AccountService, ownerKey, "connect-json");
    const adminKey = await accounts.createApiKey({ parent: account, apiKey: { role: Role.ADMIN, displayName: "CI" } });
    secrets.push(adminKey.keyString);
    expected.push({
      requestId: calls.last(),
      method: svc("account.v1.AccountService/CreateApiKey"),
      ...me,
      resource: adminKey.name,
      code: 0,
      changedFields: ["display_name", "role"],
    });

    // A distributor link: its publisher key is a secret; then rotated over REST.
    const appId = newAppId();
    const publisherKey = await newPublisherKey(harness, [appId]);
    secrets.push(publisherKey);
    const campaigns = calls.client(CampaignService, ownerKey, "grpc");
    const link = await campaigns.createDistributorLink({
      parent: account,
      distributorLink: { displayName: "Steam", steam: { publisherKey } },
    });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/CreateDistributorLink"),
      ...me,
      resource: link.name,
      code: 0,
      changedFields: ["display_name", "steam.publisher_key"],
    });
    const rotatedKey = await newPublisherKey(harness, [appId]);
    secrets.push(rotatedKey);
    const rotated = await harness.server.rest(
      "PATCH",
      `/v1/${link.name}?updateMask=steam.publisherKey`,
      { steam: { publisherKey: rotatedKey } },
      // A forwarded-for header is not the caller's address: the socket's is recorded.
      { authorization: `Bearer ${ownerKey}`, "x-request-id": "scenario-rest-rotate", "x-forwarded-for": "10.9.9.9" },
    );
    expect(rotated.status).toBe(200);
    expected.push({
      requestId: "scenario-rest-rotate",
      method: svc("campaign.v1.CampaignService/UpdateDistributorLink"),
      ...me,
      resource: link.name,
      code: 0,
      changedFields: ["steam.publisher_key"],
    });

    // A game and a campaign of it, updated, then refused on a stale etag.
    const hosting = calls.client(HostingService, ownerKey, "grpc-web");
    const game = await hosting.createGame({ parent: account, game: { displayName: "Spacewar" } });
    expected.push({
      requestId: calls.last(),
      method: svc("hosting.v1.HostingService/CreateGame"),
      ...me,
      resource: game.name,
      code: 0,
      changedFields: ["display_name"],
    });
    const campaign = await campaigns.createCampaign({
      parent: account,
      campaign: {
        displayName: "Keep it alive",
        game: game.name,
        listing: `${link.name}/listings/${appId}`,
        fundingVisibility: FundingVisibility.EXACT_BALANCE,
      },
    });
    campaignName = campaign.name;
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/CreateCampaign"),
      ...me,
      resource: campaign.name,
      code: 0,
      changedFields: ["display_name", "game", "listing", "funding_visibility"],
    });
    await campaigns.updateCampaign({
      campaign: { name: campaign.name, displayName: "Keep Spacewar alive" },
      updateMask: { paths: ["display_name"] },
    });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/UpdateCampaign"),
      ...me,
      resource: campaign.name,
      code: 0,
      changedFields: ["display_name"],
    });
    expect(
      await refusal(
        campaigns.updateCampaign({
          campaign: { name: campaign.name, displayName: "Stale", etag: "stale" },
          updateMask: { paths: ["display_name"] },
        }),
      ),
    ).toMatchObject({ code: Code.Aborted });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/UpdateCampaign"),
      ...me,
      resource: campaign.name,
      code: Code.Aborted,
      changedFields: ["display_name"],
    });

    // An offer: created, updated, deleted.
    const offers = calls.client(CampaignService, ownerKey, "connect");
    const offer = await offers.createOffer({
      parent: campaign.name,
      offer: {
        displayName: "A month",
        price: { currencyCode: "USD", units: 10n },
        credit: { currencyCode: "USD", units: 7n },
      },
    });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/CreateOffer"),
      ...me,
      resource: offer.name,
      code: 0,
      changedFields: ["display_name", "price", "credit"],
    });
    await offers.updateOffer({
      offer: { name: offer.name, displayName: "A full month" },
      updateMask: { paths: ["display_name"] },
    });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/UpdateOffer"),
      ...me,
      resource: offer.name,
      code: 0,
      changedFields: ["display_name"],
    });
    await offers.deleteOffer({ name: offer.name });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/DeleteOffer"),
      ...me,
      resource: offer.name,
      code: 0,
      changedFields: [],
    });

    // Members: added, given a session by the operator, acting through it, role changed, removed.
    const member = await accounts.createMember({
      parent: account,
      member: { email: "ops@example.com", role: Role.ADMIN },
    });
    expected.push({
      requestId: calls.last(),
      method: svc("account.v1.AccountService/CreateMember"),
      ...me,
      resource: member.name,
      code: 0,
      changedFields: ["email", "role"],
    });
    const session = await operator.createSession({ member: member.name });
    secrets.push(session.token);
    expected.push({
      requestId: calls.last(),
      method: svc("operator.v1.OperatorService/CreateSession"),
      actorType: AuditEvent_ActorType.OPERATOR,
      actor: "operator",
      resource: member.name,
      code: 0,
      changedFields: ["member"],
      account,
    });
    const asMember = calls.client(CampaignService, session.token, "connect-json");
    await asMember.updateCampaign({
      campaign: { name: campaign.name, fundingVisibility: FundingVisibility.RUNWAY },
      updateMask: { paths: ["funding_visibility"] },
    });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/UpdateCampaign"),
      actorType: AuditEvent_ActorType.SESSION,
      actor: member.name,
      resource: campaign.name,
      code: 0,
      changedFields: ["funding_visibility"],
      account,
    });
    await accounts.updateMember({ member: { name: member.name, role: Role.VIEWER }, updateMask: { paths: ["role"] } });
    expected.push({
      requestId: calls.last(),
      method: svc("account.v1.AccountService/UpdateMember"),
      ...me,
      resource: member.name,
      code: 0,
      changedFields: ["role"],
    });
    await accounts.deleteMember({ name: member.name });
    expected.push({
      requestId: calls.last(),
      method: svc("account.v1.AccountService/DeleteMember"),
      ...me,
      resource: member.name,
      code: 0,
      changedFields: [],
    });

    // An operator decision on the link, and the campaign deleted.
    await operator.setOutstandingLimit({ name: link.name, outstandingLimit: { currencyCode: "USD", units: 500n } });
    expected.push({
      requestId: calls.last(),
      method: svc("operator.v1.OperatorService/SetOutstandingLimit"),
      actorType: AuditEvent_ActorType.OPERATOR,
      actor: "operator",
      resource: link.name,
      code: 0,
      changedFields: ["outstanding_limit"],
      account,
    });
    await campaigns.deleteCampaign({ name: campaign.name });
    expected.push({
      requestId: calls.last(),
      method: svc("campaign.v1.CampaignService/DeleteCampaign"),
      ...me,
      resource: campaign.name,
      code: 0,
      changedFields: [],
    });

    // The admin key deleted; a call with it afterwards is a failed authentication, as is one
    // with a key nobody issued and one with no credential at all. From one address in one window
    // they are one event, the first's, counting three calls (docs/audit-log.md).
    await accounts.deleteApiKey({ name: adminKey.name });
    expected.push({
      requestId: calls.last(),
      method: svc("account.v1.AccountService/DeleteApiKey"),
      ...me,
      resource: adminKey.name,
      code: 0,
      changedFields: [],
    });
    const forged = "ek_forged0123456789abcdefghijklmnopqrstuvwxyz";
    secrets.push(forged);
    for (const token of [adminKey.keyString, forged]) {
      const stranger = calls.client(CampaignService, token, "grpc");
      expect(await refusal(stranger.getCampaign({ name: campaign.name }))).toMatchObject({
        code: Code.Unauthenticated,
      });
      if (token === forged) continue;
      expected.push({
        requestId: calls.last(),
        method: svc("campaign.v1.CampaignService/GetCampaign"),
        actorType: AuditEvent_ActorType.NONE,
        actor: "",
        resource: campaign.name,
        code: Code.Unauthenticated,
        callCount: 3,
      });
    }
    const anonymous = await harness.server.rest("DELETE", `/v1/${link.name}`, undefined, {
      "x-request-id": "scenario-rest-anonymous",
    });
    expect(anonymous.status).toBe(401);

    // What the operator reads: every event, each exactly as expected.
    const all = await readAll(calls.client(OperatorAuditService, TEST_OPERATOR_TOKEN), "");
    const mine = all.filter((event) => event.requestId.startsWith("scenario-"));
    expect(mine).toHaveLength(expected.length);
    for (const want of expected) {
      const found = mine.filter((event) => event.requestId === want.requestId);
      expect(found, want.requestId).toHaveLength(1);
      const event = found[0];
      expect(event, want.requestId).toMatchObject({
        method: want.method,
        actorType: want.actorType,
        actor: want.actor,
        resource: want.resource,
        code: want.code,
        address: "127.0.0.1",
        callCount: want.callCount ?? 1,
        ...(want.changedFields ? { changedFields: want.changedFields } : {}),
      });
      const id = event?.name.split("/").pop();
      expect(event?.name, want.requestId).toBe(
        want.account ? `${want.account}/auditEvents/${id}` : `auditEvents/${id}`,
      );
      expect(event?.session !== "", want.requestId).toBe(want.actorType === AuditEvent_ActorType.SESSION);
    }
    // The request itself is kept for what it set, the secret left out.
    const linkCreated = mine.find((event) => event.method.endsWith("/CreateDistributorLink"));
    expect(linkCreated?.request).toEqual({ parent: account, distributorLink: { displayName: "Steam", steam: {} } });
  });

  it("holds no secret in any column of any row", async () => {
    const rows = await harness.db.$queryRaw<{ row: string }[]>`SELECT row_to_json(a)::text AS row FROM audit_events a`;
    expect(rows.length).toBeGreaterThanOrEqual(expected.length);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      for (const { row } of rows) expect(row).not.toContain(secret);
    }
  });

  it("records no read", async () => {
    const before = await harness.db.auditEvent.count();
    const owner = calls.client(CampaignService, ownerKey, "connect");
    await owner.listCampaigns({ parent: account });
    await owner.listDistributorLinks({ parent: account });
    await calls.client(AccountService, ownerKey).listApiKeys({ parent: account });
    await calls.client(AccountService, ownerKey).getCaller({});
    await calls.client(AuditService, ownerKey).listAuditEvents({ parent: account });
    await calls.client(OperatorService, TEST_OPERATOR_TOKEN).listAccounts({});
    await calls.client(OperatorAuditService, TEST_OPERATOR_TOKEN).listAllAuditEvents({});
    expect(
      (
        await harness.server.rest("GET", `/v1/${account}/auditEvents`, undefined, {
          authorization: `Bearer ${ownerKey}`,
        })
      ).status,
    ).toBe(200);
    // Refused reads are not writes either (NOT_FOUND, INVALID_ARGUMENT): only a failed
    // authentication is recorded.
    expect(await refusal(owner.getCampaign({ name: campaignName }))).toMatchObject({ code: Code.NotFound });
    expect(await harness.db.auditEvent.count()).toBe(before);
  });
});

async function readAll(client: Client<typeof OperatorAuditService>, filter: string) {
  const events = [];
  let pageToken = "";
  do {
    const page = await client.listAllAuditEvents({ filter, pageToken, pageSize: 7 });
    events.push(...page.auditEvents);
    pageToken = page.nextPageToken;
  } while (pageToken !== "");
  return events;
}
