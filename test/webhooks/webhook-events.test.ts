import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Campaign_State } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events.js";
import { awaitCampaign, createCampaign, type Harness } from "../management/management-fixture.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { creditedPurchase, reconcile, replica, spend, testClock } from "../reconciliation/reconciliation-fixture.js";
import { DOLLAR } from "../support/seed.js";
import { seedTokens, type Tokens } from "../support/seed-hosting.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { TEST_OPERATOR_TOKEN } from "../support/test-server.js";
import { deliveryReplica, drain, type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// "Done when": with a real HTTP receiver on loopback, every event type fires once per
// change, each signed so that the documented check (the TypeScript client's helper) accepts it;
// a change that rolled back emits nothing. Every change is made through the API (or the jobs
// and the platform simulator the API relies on).

const dollars = (units: number) => ({ currencyCode: "USD", units: BigInt(units), nanos: 0 });

describe("webhook events", () => {
  let f: PurchaseFixture;
  let receiver: Receiver;
  beforeAll(async () => {
    f = await startPurchaseFixture({ ...WEBHOOK_TEST_ENV, VERIFICATION_INTERVAL_MS: "3600000" });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await f?.close();
    await receiver?.close();
  });

  const operator = () => f.server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
  const deliverAll = () => drain(f.server.app.webhookDelivery);

  async function studio(): Promise<{ shop: SeededShop; tokens: Tokens; secret: string; endpoint: string }> {
    const shop = await f.shop();
    const tokens = await seedTokens(f.db, shop.accountId);
    const created = await f.server.rest(
      "POST",
      `/v1/accounts/${shop.accountId}/webhookEndpoints`,
      { url: receiver.url, eventTypes: [...WEBHOOK_EVENT_TYPES], description: "all of it" },
      { authorization: `Bearer ${tokens.OWNER}` },
    );
    expect(created.status).toBe(200);
    expect(created.body.signingSecret).toMatch(/^whsec_/);
    return { shop, tokens, secret: created.body.signingSecret, endpoint: created.body.name };
  }

  const ofAccount = (accountId: string) =>
    receiver.received.filter((r) => r.envelope.account === `accounts/${accountId}`);

  it("fires every event type once per change, each signed as documented", async () => {
    const { shop, tokens, secret } = await studio();
    const harness = { server: f.server, sim: f.sim, db: f.db } as Harness;
    const owner = f.server.client(CampaignService, "connect", tokens.OWNER);
    const account = { accountId: shop.accountId, name: `accounts/${shop.accountId}`, tokens, owner };

    // Two campaigns verified by the background job into NEEDS_REVIEW (the store still sells the
    // game); the operator verifies then revokes one, declines the other.
    const first = await createCampaign(harness, account);
    const second = await createCampaign(harness, account);
    for (const { campaign } of [first, second]) {
      expect((await awaitCampaign(owner, campaign.name)).state).toBe(Campaign_State.NEEDS_REVIEW);
    }
    await operator().decideCampaign({ name: first.campaign.name, state: Campaign_State.VERIFIED });
    await operator().decideCampaign({ name: first.campaign.name, state: Campaign_State.REVOKED });
    await operator().decideCampaign({ name: second.campaign.name, state: Campaign_State.DECLINED });

    // A purchase credited, part of the credit settled, then the order refunded on the platform:
    // reconciliation reverses it, and the runway (a dollar a week spent) falls below 3 days.
    const campaignName = `accounts/${shop.accountId}/campaigns/${shop.campaignId}`;
    await owner.updateCampaign({
      campaign: { name: campaignName, runwayAlertDays: 3 },
      updateMask: { paths: ["runway_alert_days"] },
    });
    await spend(f.db, shop.projectId, DOLLAR, new Date());
    const clock = testClock();
    const job = replica(f, clock);
    const purchase = await creditedPurchase(f, shop);
    await job.runOnce();
    const link = `accounts/${shop.accountId}/distributorLinks/${shop.linkId}`;
    await operator().recordSettlement({ parent: link, amount: dollars(1), reference: "wire 1" });
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded");
    clock.tick();
    expect(await reconcile(job, shop)).toMatchObject({ reversed: 1 });
    // Reconciled again: nothing changed, nothing fires.
    clock.tick();
    await reconcile(job, shop);

    // The platform rejects the link's key when its apps are listed.
    await f.sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "rejectKey", times: 1 });
    await expect(owner.listListings({ parent: link })).rejects.toMatchObject({ code: Code.FailedPrecondition });

    // Reconciliation ran on a clock ahead of the service's: its events are due from that time.
    await drain(deliveryReplica(f.db, { now: new Date(clock.now.getTime() + 60_000) }));
    const got = ofAccount(shop.accountId);
    expect(got.map((r) => r.envelope.type).sort()).toEqual(
      [
        "campaign.needs_review",
        "campaign.needs_review",
        "campaign.verified",
        "campaign.revoked",
        "campaign.declined",
        "purchase.credited",
        "settlement.recorded",
        "purchase.reversed",
        "campaign.runway_low",
        "distributor_link.credential_invalid",
      ].sort(),
    );
    expect(new Set(got.map((r) => r.envelope.id)).size).toBe(got.length);
    expect(got.every((r) => r.eventId === r.envelope.id)).toBe(true);
    expect(receiver.allSignedWith(secret)).toBe(true);

    // The envelope: versioned, and the resource exactly as the API returns it (proto3 JSON).
    const byType = (type: string) => got.find((r) => r.envelope.type === type)?.envelope;
    expect(byType("purchase.credited")).toMatchObject({
      api_version: "v1",
      account: `accounts/${shop.accountId}`,
      data: {
        name: purchase.id.includes("/") ? purchase.id : expect.stringContaining(purchase.id),
        state: "STATE_CREDITED",
      },
    });
    const revoked = byType("campaign.revoked");
    expect(revoked?.data).toMatchObject({ name: first.campaign.name, state: "REVOKED" });
    // The campaign as the API shows it, its funding page's link included (docs/game-integration.md).
    expect(revoked?.data?.webFundingUri).toMatch(new RegExp(`^http://[^/]+/fund/${first.campaign.campaignKey}$`));
    expect(byType("settlement.recorded")?.data).toMatchObject({ amount: { currencyCode: "USD", units: "1" } });
    expect(byType("distributor_link.credential_invalid")?.data).toMatchObject({
      name: link,
      state: "STATE_CREDENTIAL_INVALID",
    });
    expect(byType("campaign.runway_low")?.data).toMatchObject({ name: `${campaignName}/funding`, runwayDays: "0" });
    const reversed = byType("purchase.reversed")?.data;
    const current = await f.server.rest("GET", `/v1/${reversed.name}`, undefined, {
      authorization: `Bearer ${tokens.OWNER}`,
    });
    expect(reversed).toEqual(current.body);

    // Delivered once: another pass finds nothing.
    expect(await deliverAll()).toEqual([]);
    expect(ofAccount(shop.accountId)).toHaveLength(got.length);
  });

  it("emits nothing for a change that rolled back", async () => {
    const { shop } = await studio();
    const campaign = `accounts/${shop.accountId}/campaigns/${shop.campaignId}`;
    // Revoking writes the campaign, then the event, then its deliveries; a failure at the last
    // step rolls back the whole transaction.
    await f.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'delivery refused by the test'; END $$`);
    await f.db.$executeRawUnsafe(`
      CREATE TRIGGER refuse_delivery BEFORE INSERT ON webhook_deliveries
      FOR EACH ROW EXECUTE FUNCTION refuse_delivery()`);
    try {
      await expect(operator().decideCampaign({ name: campaign, state: Campaign_State.REVOKED })).rejects.toMatchObject({
        code: Code.Internal,
      });
    } finally {
      await f.db.$executeRawUnsafe("DROP TRIGGER refuse_delivery ON webhook_deliveries");
      await f.db.$executeRawUnsafe("DROP FUNCTION refuse_delivery()");
    }
    const row = await f.db.campaign.findUniqueOrThrow({ where: { id: shop.campaignId } });
    expect(row.state).toBe("VERIFIED");
    expect(await f.db.webhookEvent.count({ where: { accountId: shop.accountId } })).toBe(0);
    await deliverAll();
    expect(ofAccount(shop.accountId)).toEqual([]);

    // The same change, committed, fires.
    await operator().decideCampaign({ name: campaign, state: Campaign_State.REVOKED });
    await deliverAll();
    expect(ofAccount(shop.accountId).map((r) => r.envelope.type)).toEqual(["campaign.revoked"]);
  });

  it("sends only the types an endpoint subscribed to, to ACTIVE endpoints of the event's account", async () => {
    const { shop, tokens } = await studio();
    const other = await startReceiver();
    try {
      const webhooks = f.server.client(WebhookService, "connect", tokens.ADMIN);
      const narrow = await webhooks.createWebhookEndpoint({
        parent: `accounts/${shop.accountId}`,
        webhookEndpoint: { url: other.url, eventTypes: ["settlement.recorded"] },
      });
      const link = `accounts/${shop.accountId}/distributorLinks/${shop.linkId}`;
      await creditedPurchase(f, shop);
      await operator().recordSettlement({ parent: link, amount: dollars(1), reference: "wire 2" });
      await deliverAll();
      await webhooks.updateWebhookEndpoint({
        webhookEndpoint: { name: narrow.name, state: 2 },
        updateMask: { paths: ["state"] },
      });
      await operator().recordSettlement({ parent: link, amount: dollars(1), reference: "wire 3" });
      await deliverAll();
      expect(other.received.map((r) => r.envelope.type)).toEqual(["settlement.recorded"]);
      expect(
        ofAccount(shop.accountId)
          .map((r) => r.envelope.type)
          .sort(),
      ).toEqual(["purchase.credited", "settlement.recorded", "settlement.recorded"].sort());
    } finally {
      await other.close();
    }
  });
});
