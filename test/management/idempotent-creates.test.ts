import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { refusal } from "../support/refusal.js";
import { onPostgres } from "../support/test-database.js";
import {
  awaitCampaign,
  clientFor,
  createCampaign,
  createLink,
  type Harness,
  idOf,
  newAppId,
  newPublisherKey,
  type Studio,
  seedGame,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

const usd = (units: bigint) => ({ currencyCode: "USD", units, nanos: 0 });

// AIP-155 on CreateDistributorLink, CreateCampaign and CreateOffer: a retry with the same
// request_id is answered with what the first call created, without asking the platform again
// or storing a second row; the same request_id with another request is ALREADY_EXISTS.
describe("idempotent creates (request_id)", () => {
  let harness: Harness;
  let studio: Studio;
  beforeAll(async () => {
    harness = await startHarness();
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  const linkRequest = (publisherKey: string, requestId: string, displayName = "Steam") => ({
    parent: studio.name,
    distributorLink: { displayName, steam: { publisherKey } },
    requestId,
  });

  describe("CreateDistributorLink", () => {
    it("answers a retry (over another protocol) with the first link, without a second platform call", async () => {
      const publisherKey = await newPublisherKey(harness, [newAppId()]);
      const first = await studio.owner.createDistributorLink(linkRequest(publisherKey, "link-retry"));
      await harness.sim.control.clearCalls();
      const retried = await clientFor(harness, studio.tokens.OWNER, "grpc").createDistributorLink(
        linkRequest(publisherKey, "link-retry"),
      );
      expect(retried).toEqual(first);
      expect(await harness.sim.control.listCalls()).toEqual([]);
      expect(
        await harness.db.distributorLink.count({ where: { accountId: studio.accountId, requestId: "link-retry" } }),
      ).toBe(1);
    });

    it("refuses the same request_id with a different request: ALREADY_EXISTS, nothing stored", async () => {
      const publisherKey = await newPublisherKey(harness, [newAppId()]);
      await studio.owner.createDistributorLink(linkRequest(publisherKey, "link-reuse"));
      const before = await harness.db.distributorLink.count();
      const found = await refusal(studio.owner.createDistributorLink(linkRequest(publisherKey, "link-reuse", "Other")));
      expect(found.code).toBe(Code.AlreadyExists);
      expect(await harness.db.distributorLink.count()).toBe(before);
    });

    it("keeps request ids per account: another account's id is its own", async () => {
      const other = await seedStudio(harness);
      const mine = await studio.owner.createDistributorLink(
        linkRequest(await newPublisherKey(harness, [newAppId()]), "shared-id"),
      );
      const theirs = await other.owner.createDistributorLink({
        ...linkRequest(await newPublisherKey(harness, [newAppId()]), "shared-id"),
        parent: other.name,
      });
      expect(idOf(theirs.name)).not.toBe(idOf(mine.name));
      expect(theirs.name.startsWith(other.name)).toBe(true);
    });

    it("creates one link when two creates with one request_id race (PostgreSQL)", async (context) => {
      if (!onPostgres(harness.server.db)) context.skip();
      const publisherKey = await newPublisherKey(harness, [newAppId()]);
      const made = await Promise.all(
        Array.from({ length: 6 }, () => studio.owner.createDistributorLink(linkRequest(publisherKey, "link-race"))),
      );
      expect(new Set(made.map((link) => link.name)).size).toBe(1);
      expect(
        await harness.db.distributorLink.count({ where: { accountId: studio.accountId, requestId: "link-race" } }),
      ).toBe(1);
    });
  });

  describe("CreateCampaign", () => {
    async function campaignRequest(requestId: string, displayName = "Keep it alive") {
      const linked = await createLink(harness, studio);
      const game = await seedGame(harness, studio);
      const listing = `${linked.link}/listings/${linked.appIds[0]}`;
      return {
        parent: studio.name,
        campaign: { displayName, game, listing, fundingVisibility: FundingVisibility.RUNWAY },
        requestId,
      };
    }

    it("answers a retry with the first campaign: no second platform call, no second campaign or project", async () => {
      const request = await campaignRequest("campaign-retry");
      const first = await studio.owner.createCampaign(request);
      // Let background verification finish, so every platform call after this is the retry's.
      await awaitCampaign(studio.owner, first.name);
      await harness.sim.control.clearCalls();
      const projects = await harness.db.project.count({ where: { accountId: studio.accountId } });
      const retried = await studio.owner.createCampaign(request);
      expect(retried).toEqual(await studio.owner.getCampaign({ name: first.name }));
      expect(await harness.sim.control.listCalls()).toEqual([]);
      expect(await harness.db.project.count({ where: { accountId: studio.accountId } })).toBe(projects);
    });

    it("refuses the same request_id with a different request: ALREADY_EXISTS", async () => {
      const request = await campaignRequest("campaign-reuse");
      await studio.owner.createCampaign(request);
      const changed = { ...request, campaign: { ...request.campaign, displayName: "Another name" } };
      expect((await refusal(studio.owner.createCampaign(changed))).code).toBe(Code.AlreadyExists);
    });

    it("still refuses a second campaign for one app under a new request_id", async () => {
      const request = await campaignRequest("campaign-app-1");
      await studio.owner.createCampaign(request);
      const found = await refusal(studio.owner.createCampaign({ ...request, requestId: "campaign-app-2" }));
      expect(found).toMatchObject({ code: Code.AlreadyExists, reason: "PRODUCT_ALREADY_HAS_CAMPAIGN" });
    });

    it("creates one campaign when creates with one request_id race (PostgreSQL)", async (context) => {
      if (!onPostgres(harness.server.db)) context.skip();
      const request = await campaignRequest("campaign-race");
      const made = await Promise.all(Array.from({ length: 6 }, () => studio.owner.createCampaign(request)));
      expect(new Set(made.map((campaign) => campaign.name)).size).toBe(1);
      expect(
        await harness.db.campaign.count({ where: { accountId: studio.accountId, requestId: "campaign-race" } }),
      ).toBe(1);
    });
  });

  describe("CreateOffer", () => {
    let campaignName: string;
    beforeAll(async () => {
      campaignName = (await createCampaign(harness, studio)).campaign.name;
    });
    const offerRequest = (requestId: string, price = 5n) => ({
      parent: campaignName,
      offer: { displayName: "Server time", price: usd(price), credit: usd(3n) },
      requestId,
    });
    const offersWith = (requestId: string) =>
      harness.db.offer.count({ where: { campaignId: idOf(campaignName), requestId } });

    it("answers a retry with the first offer, stored once", async () => {
      const first = await studio.owner.createOffer(offerRequest("offer-retry"));
      expect(await studio.owner.createOffer(offerRequest("offer-retry"))).toEqual(first);
      expect(await offersWith("offer-retry")).toBe(1);
    });

    it("refuses the same request_id with a different request: ALREADY_EXISTS", async () => {
      await studio.owner.createOffer(offerRequest("offer-reuse"));
      expect((await refusal(studio.owner.createOffer(offerRequest("offer-reuse", 6n)))).code).toBe(Code.AlreadyExists);
      expect(await offersWith("offer-reuse")).toBe(1);
    });

    it("refuses a request_id longer than 128 characters, and takes 128 emoji", async () => {
      const tooLong = await refusal(studio.owner.createOffer(offerRequest("r".repeat(129))));
      expect(tooLong.code).toBe(Code.InvalidArgument);
      // Spec 8 counts characters: 128 code points, 256 UTF-16 units.
      const emoji = "\u{1F3AE}".repeat(128);
      await expect(studio.owner.createOffer(offerRequest(emoji))).resolves.toBeDefined();
    });

    it("creates one offer when creates with one request_id race (PostgreSQL)", async (context) => {
      if (!onPostgres(harness.server.db)) context.skip();
      const made = await Promise.all(
        Array.from({ length: 6 }, () => studio.owner.createOffer(offerRequest("offer-race"))),
      );
      expect(new Set(made.map((offer) => offer.name)).size).toBe(1);
      expect(await offersWith("offer-race")).toBe(1);
    });
  });
});
