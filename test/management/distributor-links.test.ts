import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DistributorLink_State } from "../../gen/encore/campaign/v1/distributor_link_pb.js";
import { refusal } from "../support/refusal.js";
import {
  createCampaign,
  createLink,
  expectReason,
  type Harness,
  idOf,
  newAppId,
  newPublisherKey,
  type Studio,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

const DOLLAR = 1_000_000_000n;

describe("distributor links", () => {
  let harness: Harness;
  let studio: Studio;
  beforeAll(async () => {
    harness = await startHarness();
    await harness.db.operatorSettings.upsert({
      where: { id: 1 },
      create: { id: 1, defaultOutstandingLimitNanos: 250n * DOLLAR },
      update: { defaultOutstandingLimitNanos: 250n * DOLLAR },
    });
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  it("checks the key with the platform, then stores a link carrying only a fingerprint and the default limit", async () => {
    const appId = newAppId();
    const publisherKey = await newPublisherKey(harness, [appId]);
    await harness.sim.control.clearCalls();
    const link = await studio.owner.createDistributorLink({
      parent: studio.name,
      distributorLink: { displayName: "Steam", steam: { publisherKey, sandbox: true } },
    });
    expect(link.name).toMatch(new RegExp(`^${studio.name}/distributorLinks/[a-z0-9]+$`));
    expect(link.fingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(link.steam).toEqual({ $typeName: "encore.campaign.v1.DistributorLink.Steam", sandbox: true });
    expect(link.state).toBe(DistributorLink_State.ACTIVE);
    expect(link.outstanding).toMatchObject({ currencyCode: "USD", units: 0n, nanos: 0 });
    expect(link.reserved).toMatchObject({ currencyCode: "USD", units: 0n, nanos: 0 });
    expect(link.outstandingLimit).toMatchObject({ currencyCode: "USD", units: 250n, nanos: 0 });
    expect(link.etag).not.toBe("");
    expect(await harness.sim.control.listCalls({ call: "GetPartnerAppListForWebAPIKey" })).toHaveLength(1);
    const read = await studio.owner.getDistributorLink({ name: link.name });
    expect(read).toEqual(link);
  });

  it.each([
    ["a key the platform rejects", async () => "UNKNOWNKEY0000"],
    [
      "a key owning no game",
      async () => {
        const key = `DLCONLY${newAppId()}`;
        await harness.sim.control.addPublisherKey(key, [{ appid: newAppId(), appType: "dlc" }]);
        return key;
      },
    ],
    ["a key with spaces", async () => "not a key"],
    ["no key at all", async () => ""],
  ])("refuses %s with INVALID_ARGUMENT and stores nothing", async (_, key) => {
    const fresh = await seedStudio(harness);
    const found = await refusal(
      fresh.owner.createDistributorLink({
        parent: fresh.name,
        distributorLink: { steam: { publisherKey: await key() } },
      }),
    );
    expect(found.code).toBe(Code.InvalidArgument);
    expect((await fresh.owner.listDistributorLinks({ parent: fresh.name })).distributorLinks).toEqual([]);
  });

  it("answers UNAVAILABLE when the platform does not answer, and stores nothing", async () => {
    const fresh = await seedStudio(harness);
    const publisherKey = await newPublisherKey(harness, [newAppId()]);
    await harness.sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "http5xx", times: 5 });
    try {
      const found = await refusal(
        fresh.owner.createDistributorLink({ parent: fresh.name, distributorLink: { steam: { publisherKey } } }),
      );
      expect(found.code).toBe(Code.Unavailable);
    } finally {
      await harness.sim.control.clearFaults();
    }
    expect((await fresh.owner.listDistributorLinks({ parent: fresh.name })).distributorLinks).toEqual([]);
  });

  it("lists links in pages with opaque tokens bound to the list", async () => {
    const fresh = await seedStudio(harness);
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push((await createLink(harness, fresh)).link);
    const first = await fresh.owner.listDistributorLinks({ parent: fresh.name, pageSize: 2 });
    expect(first.distributorLinks.map((l) => l.name)).toEqual(made.slice(0, 2));
    expect(first.nextPageToken).not.toBe("");
    const second = await fresh.owner.listDistributorLinks({
      parent: fresh.name,
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect(second.distributorLinks.map((l) => l.name)).toEqual(made.slice(2));
    expect(second.nextPageToken).toBe("");
    const all = await fresh.owner.listDistributorLinks({ parent: fresh.name });
    expect(all.distributorLinks).toHaveLength(3);
    const other = await refusal(
      studio.owner.listDistributorLinks({ parent: studio.name, pageToken: first.nextPageToken }),
    );
    expect(other.code).toBe(Code.InvalidArgument);
    expect((await refusal(fresh.owner.listDistributorLinks({ parent: fresh.name, pageSize: -1 }))).code).toBe(
      Code.InvalidArgument,
    );
  });

  it("updates the display name under a mask and refuses a changed sandbox flag", async () => {
    const { link } = await createLink(harness, studio);
    const updated = await studio.owner.updateDistributorLink({
      distributorLink: { name: link, displayName: "Renamed", steam: { sandbox: false } },
      updateMask: { paths: ["display_name"] },
    });
    expect(updated.displayName).toBe("Renamed");
    const sandbox = await refusal(
      studio.owner.updateDistributorLink({
        distributorLink: { name: link, steam: { sandbox: true } },
        updateMask: { paths: ["steam.sandbox"] },
      }),
    );
    expect(sandbox.code).toBe(Code.InvalidArgument);
    const unknown = await refusal(
      studio.owner.updateDistributorLink({
        distributorLink: { name: link },
        updateMask: { paths: ["outstanding_limit_x"] },
      }),
    );
    expect(unknown.code).toBe(Code.InvalidArgument);
  });

  it("refuses a stale etag with ABORTED (ETAG_MISMATCH)", async () => {
    const { link } = await createLink(harness, studio);
    const read = await studio.owner.getDistributorLink({ name: link });
    await studio.owner.updateDistributorLink({ distributorLink: { name: link, displayName: "A", etag: read.etag } });
    const stale = await refusal(
      studio.owner.updateDistributorLink({ distributorLink: { name: link, displayName: "B", etag: read.etag } }),
    );
    expectReason(stale, Code.Aborted, "ETAG_MISMATCH");
    const staleDelete = await refusal(studio.owner.deleteDistributorLink({ name: link, etag: read.etag }));
    expectReason(staleDelete, Code.Aborted, "ETAG_MISMATCH");
  });

  describe("key rotation", () => {
    it("accepts a new key that still owns every app a campaign sells, and changes the fingerprint", async () => {
      const linked = await createLink(harness, studio);
      await createCampaign(harness, studio, linked);
      const before = await studio.owner.getDistributorLink({ name: linked.link });
      const newKey = await newPublisherKey(harness, [...linked.appIds, newAppId()]);
      const rotated = await studio.owner.updateDistributorLink({
        distributorLink: { name: linked.link, steam: { publisherKey: newKey } },
        updateMask: { paths: ["steam.publisher_key"] },
      });
      expect(rotated.fingerprint).not.toBe(before.fingerprint);
      expect(rotated.fingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    });

    it("refuses a key that does not own a campaign's app with KEY_DOES_NOT_OWN_PRODUCT", async () => {
      const linked = await createLink(harness, studio);
      await createCampaign(harness, studio, linked);
      const before = await studio.owner.getDistributorLink({ name: linked.link });
      const newKey = await newPublisherKey(harness, [newAppId()]);
      const found = await refusal(
        studio.owner.updateDistributorLink({ distributorLink: { name: linked.link, steam: { publisherKey: newKey } } }),
      );
      expectReason(found, Code.FailedPrecondition, "KEY_DOES_NOT_OWN_PRODUCT");
      expect((await studio.owner.getDistributorLink({ name: linked.link })).fingerprint).toBe(before.fingerprint);
    });

    it("refuses a rejected new key with INVALID_ARGUMENT", async () => {
      const linked = await createLink(harness, studio);
      const found = await refusal(
        studio.owner.updateDistributorLink({
          distributorLink: { name: linked.link, steam: { publisherKey: "REVOKEDKEY" } },
        }),
      );
      expect(found.code).toBe(Code.InvalidArgument);
    });

    it("clears STATE_CREDENTIAL_INVALID", async () => {
      const linked = await createLink(harness, studio);
      await harness.sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "rejectKey", times: 1 });
      const listing = await refusal(studio.owner.listListings({ parent: linked.link }));
      expectReason(listing, Code.FailedPrecondition, "PUBLISHER_UNAVAILABLE");
      const invalid = await studio.owner.getDistributorLink({ name: linked.link });
      expect(invalid.state).toBe(DistributorLink_State.CREDENTIAL_INVALID);
      const newKey = await newPublisherKey(harness, linked.appIds);
      const rotated = await studio.owner.updateDistributorLink({
        distributorLink: { name: linked.link, steam: { publisherKey: newKey }, etag: invalid.etag },
      });
      expect(rotated.state).toBe(DistributorLink_State.ACTIVE);
    });
  });

  describe("delete", () => {
    it("deletes an unused link", async () => {
      const { link } = await createLink(harness, studio);
      await studio.owner.deleteDistributorLink({ name: link });
      expect((await refusal(studio.owner.getDistributorLink({ name: link }))).code).toBe(Code.NotFound);
      expect((await refusal(studio.owner.deleteDistributorLink({ name: link }))).code).toBe(Code.NotFound);
    });

    it("refuses with LINK_IN_USE while a campaign names the link", async () => {
      const linked = await createLink(harness, studio);
      await createCampaign(harness, studio, linked);
      expectReason(
        await refusal(studio.owner.deleteDistributorLink({ name: linked.link })),
        Code.FailedPrecondition,
        "LINK_IN_USE",
      );
    });

    it("refuses with LINK_IN_USE once a purchase was made through the link", async () => {
      const linked = await createLink(harness, studio, 2);
      const other = await createLink(harness, studio);
      const { campaign } = await createCampaign(harness, studio, other);
      const offer = await studio.owner.createOffer({
        parent: campaign.name,
        offer: {
          displayName: "Five",
          price: { currencyCode: "USD", units: 5n },
          credit: { currencyCode: "USD", units: 3n },
        },
      });
      const { seedPurchase } = await import("./management-fixture.js");
      await seedPurchase(harness, {
        campaignId: idOf(campaign.name),
        offerId: idOf(offer.name),
        linkId: idOf(linked.link),
      });
      expectReason(
        await refusal(studio.owner.deleteDistributorLink({ name: linked.link })),
        Code.FailedPrecondition,
        "LINK_IN_USE",
      );
    });
  });

  it("lists the apps the key owns now, from the platform, by app id", async () => {
    const linked = await createLink(harness, studio, 3);
    const listed = await studio.owner.listListings({ parent: linked.link, pageSize: 2 });
    const sorted = [...linked.appIds].sort((a, b) => a - b);
    expect(listed.listings.map((l) => l.name)).toEqual(sorted.slice(0, 2).map((id) => `${linked.link}/listings/${id}`));
    expect(listed.listings[0]).toMatchObject({ appId: BigInt(sorted[0] as number), displayName: `Game ${sorted[0]}` });
    const rest = await studio.owner.listListings({ parent: linked.link, pageSize: 2, pageToken: listed.nextPageToken });
    expect(rest.listings.map((l) => l.appId)).toEqual([BigInt(sorted[2] as number)]);
    expect(rest.nextPageToken).toBe("");
    await harness.sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "http5xx", times: 5 });
    try {
      expect((await refusal(studio.owner.listListings({ parent: linked.link }))).code).toBe(Code.Unavailable);
    } finally {
      await harness.sim.control.clearFaults();
    }
  });

  it("lists the link's settlements newest first, in pages", async () => {
    const { link } = await createLink(harness, studio);
    const base = Date.parse("2026-11-01T00:00:00Z");
    for (let day = 0; day < 3; day += 1) {
      await harness.db.settlement.create({
        data: {
          id: `settlement-${idOf(link)}-${day}`,
          linkId: idOf(link),
          amountNanos: BigInt(day + 1) * DOLLAR,
          reference: `INV-${day}`,
          createTime: new Date(base + day * 86_400_000),
        },
      });
    }
    const first = await studio.owner.listSettlements({ parent: link, pageSize: 2 });
    expect(first.settlements.map((s) => s.reference)).toEqual(["INV-2", "INV-1"]);
    expect(first.settlements[0]).toMatchObject({
      name: `${link}/settlements/settlement-${idOf(link)}-2`,
      amount: { currencyCode: "USD", units: 3n, nanos: 0 },
    });
    const second = await studio.owner.listSettlements({ parent: link, pageSize: 2, pageToken: first.nextPageToken });
    expect(second.settlements.map((s) => s.reference)).toEqual(["INV-0"]);
    expect(second.nextPageToken).toBe("");
  });
});
