import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Purchase_State } from "../../gen/encore/campaign/v1/purchase_pb.js";
import { refusal } from "../support/refusal.js";
import {
  createCampaign,
  expectReason,
  type Harness,
  idOf,
  type Studio,
  seedPurchase,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

const usd = (units: bigint, nanos = 0, currencyCode = "USD") => ({ currencyCode, units, nanos });
const DOLLAR = 1_000_000_000n;

describe("offers, purchases and funding", () => {
  let harness: Harness;
  let studio: Studio;
  let campaignName: string;
  let campaignId: string;
  let linkId: string;
  let projectId: string;
  beforeAll(async () => {
    harness = await startHarness();
    studio = await seedStudio(harness);
    const made = await createCampaign(harness, studio);
    campaignName = made.campaign.name;
    campaignId = idOf(campaignName);
    linkId = idOf(made.linked.link);
    projectId = idOf(made.campaign.project);
  });
  afterAll(() => harness.close());

  const offer = (fields: Record<string, unknown> = {}) => ({
    displayName: "Five dollars of server time",
    description: "Keeps the servers up",
    price: usd(4n, 990_000_000),
    credit: usd(3n),
    ...fields,
  });

  describe("CreateOffer", () => {
    it("creates an active offer by default, with its credit visible to the studio", async () => {
      const created = await studio.owner.createOffer({ parent: campaignName, offer: offer() });
      expect(created.name).toMatch(new RegExp(`^${campaignName}/offers/[a-z0-9]+$`));
      expect(created).toMatchObject({ active: true, price: usd(4n, 990_000_000), credit: usd(3n) });
      expect(await studio.owner.getOffer({ name: created.name })).toEqual(created);
      const inactive = await studio.owner.createOffer({ parent: campaignName, offer: offer({ active: false }) });
      expect(inactive.active).toBe(false);
    });

    it("accepts a credit of exactly the price less the storefront's 30% share", async () => {
      const created = await studio.owner.createOffer({
        parent: campaignName,
        offer: offer({ price: usd(10n), credit: usd(7n) }),
      });
      expect(created.credit).toEqual(expect.objectContaining(usd(7n)));
    });

    it.each([
      ["a price in fractions of a cent", { price: usd(1n, 5_000_000) }],
      ["a price in another currency", { price: usd(5n, 0, "EUR") }],
      ["a zero price", { price: usd(0n) }],
      ["a zero credit", { credit: usd(0n) }],
      ["a credit in another currency", { credit: usd(1n, 0, "EUR") }],
      ["no credit", { credit: undefined }],
      ["no display name", { displayName: "" }],
      ["a display name too long for the overlay", { displayName: "x".repeat(129) }],
    ])("refuses %s with INVALID_ARGUMENT", async (_, fields) => {
      expect((await refusal(studio.owner.createOffer({ parent: campaignName, offer: offer(fields) }))).code).toBe(
        Code.InvalidArgument,
      );
    });

    it("names the largest credit allowed when the credit is too large", async () => {
      const found = await refusal(
        studio.owner.createOffer({
          parent: campaignName,
          offer: offer({ price: usd(10n), credit: usd(7n, 10_000_000) }),
        }),
      );
      expect(found.code).toBe(Code.InvalidArgument);
      expect(found.message).toContain("USD 7.00");
    });
  });

  it("lists every offer, active or not, in pages", async () => {
    const made = await createCampaign(harness, studio);
    const names = [];
    for (const active of [true, false, true]) {
      names.push((await studio.owner.createOffer({ parent: made.campaign.name, offer: offer({ active }) })).name);
    }
    const first = await studio.owner.listOffers({ parent: made.campaign.name, pageSize: 2 });
    const second = await studio.owner.listOffers({
      parent: made.campaign.name,
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect([...first.offers, ...second.offers].map((o) => o.name)).toEqual(names);
    expect(second.nextPageToken).toBe("");
  });

  describe("UpdateOffer", () => {
    it("changes price and credit for later purchases and leaves earlier purchases as they were", async () => {
      const created = await studio.owner.createOffer({
        parent: campaignName,
        offer: offer({ price: usd(5n), credit: usd(3n) }),
      });
      const purchase = await seedPurchase(harness, {
        campaignId,
        offerId: idOf(created.name),
        linkId,
        creditNanos: 3n * DOLLAR,
      });
      const updated = await studio.owner.updateOffer({
        offer: { name: created.name, price: usd(10n), credit: usd(6n), etag: created.etag },
        updateMask: { paths: ["price", "credit"] },
      });
      expect(updated).toMatchObject({ price: usd(10n), credit: usd(6n) });
      const read = await studio.owner.getPurchase({ name: `${campaignName}/purchases/${purchase}` });
      expect(read).toMatchObject({ price: usd(5n), credit: usd(3n), offer: created.name });
    });

    it("checks the credit against the price it will have", async () => {
      const created = await studio.owner.createOffer({
        parent: campaignName,
        offer: offer({ price: usd(10n), credit: usd(7n) }),
      });
      const found = await refusal(
        studio.owner.updateOffer({ offer: { name: created.name, price: usd(5n) }, updateMask: { paths: ["price"] } }),
      );
      expect(found.code).toBe(Code.InvalidArgument);
      const lowered = await studio.owner.updateOffer({
        offer: {
          name: created.name,
          price: usd(5n),
          credit: usd(3n),
          active: false,
          description: "New text",
          displayName: "Renamed",
        },
      });
      expect(lowered).toMatchObject({
        price: usd(5n),
        credit: usd(3n),
        active: false,
        description: "New text",
        displayName: "Renamed",
      });
    });

    it("refuses a stale etag with ABORTED (ETAG_MISMATCH)", async () => {
      const created = await studio.owner.createOffer({ parent: campaignName, offer: offer() });
      await studio.owner.updateOffer({ offer: { name: created.name, displayName: "One", etag: created.etag } });
      const stale = await refusal(
        studio.owner.updateOffer({ offer: { name: created.name, displayName: "Two", etag: created.etag } }),
      );
      expectReason(stale, Code.Aborted, "ETAG_MISMATCH");
    });
  });

  describe("DeleteOffer", () => {
    it("deletes an offer nobody bought", async () => {
      const created = await studio.owner.createOffer({ parent: campaignName, offer: offer() });
      await studio.owner.deleteOffer({ name: created.name });
      expect((await refusal(studio.owner.getOffer({ name: created.name }))).code).toBe(Code.NotFound);
    });

    it("deactivates an offer somebody bought instead", async () => {
      const created = await studio.owner.createOffer({ parent: campaignName, offer: offer() });
      await seedPurchase(harness, { campaignId, offerId: idOf(created.name), linkId });
      await studio.owner.deleteOffer({ name: created.name });
      expect((await studio.owner.getOffer({ name: created.name })).active).toBe(false);
    });
  });

  it("reads purchases one by one and newest first, in pages", async () => {
    const made = await createCampaign(harness, studio);
    const created = await studio.owner.createOffer({ parent: made.campaign.name, offer: offer() });
    const ids = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(
        await seedPurchase(harness, {
          campaignId: idOf(made.campaign.name),
          offerId: idOf(created.name),
          linkId: idOf(made.linked.link),
          createTime: new Date(Date.UTC(2026, 10, 1 + i)),
        }),
      );
    }
    const first = await studio.owner.listPurchases({ parent: made.campaign.name, pageSize: 2 });
    const second = await studio.owner.listPurchases({
      parent: made.campaign.name,
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect([...first.purchases, ...second.purchases].map((p) => idOf(p.name))).toEqual([...ids].reverse());
    expect(second.nextPageToken).toBe("");
    const one = await studio.owner.getPurchase({ name: `${made.campaign.name}/purchases/${ids[0]}` });
    expect(one).toMatchObject({
      state: Purchase_State.INITIATED,
      playerId: "76561198000000001",
      sandbox: false,
      price: usd(5n),
    });
    expect(one.orderId).toBeGreaterThan(0n);
    expect((await refusal(studio.owner.getPurchase({ name: `${campaignName}/purchases/${ids[0]}` }))).code).toBe(
      Code.NotFound,
    );
  });

  it("reports balance, seven-day spend, runway and purchases credited over the window", async () => {
    const now = Date.now();
    const day = 86_400_000;
    await harness.db.project.update({ where: { id: projectId }, data: { balanceNanos: 120n * DOLLAR } });
    const usage = (amount: bigint, at: number) =>
      harness.db.ledgerEntry.create({
        data: { id: `u-${at}-${amount}`, projectId, type: "USAGE", amountNanos: -amount, createTime: new Date(at) },
      });
    await usage(14n * DOLLAR, now - 1 * day);
    await usage(14n * DOLLAR, now - 6 * day);
    await usage(500n * DOLLAR, now - 9 * day);
    const bought = await studio.owner.createOffer({ parent: campaignName, offer: offer() });
    const credited = (at: number) =>
      seedPurchase(harness, {
        campaignId,
        offerId: idOf(bought.name),
        linkId,
        state: "CREDITED",
        creditNanos: 3n * DOLLAR,
        creditTime: new Date(at),
      });
    await credited(now - 2 * day);
    await credited(now - 3 * day);
    await credited(now - 10 * day);
    const funding = await studio.owner.getFunding({ name: `${campaignName}/funding` });
    expect(funding).toMatchObject({
      name: `${campaignName}/funding`,
      balance: usd(120n),
      sevenDaySpend: usd(28n),
      // $120 at $4 a day.
      runwayDays: 30n,
      purchaseCount: 2n,
      purchasedCredit: usd(6n),
    });
    const start = Number(funding.windowStartTime?.seconds ?? 0n);
    const end = Number(funding.windowEndTime?.seconds ?? 0n);
    expect(end - start).toBe(7 * 86_400);
  });
});
