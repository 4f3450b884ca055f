import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Campaign_State } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { DistributorLink_State } from "../../gen/encore/campaign/v1/distributor_link_pb.js";
import { Transfer_Mode, Transfer_State, TransferItem_State } from "../../gen/encore/campaign/v1/transfer_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { refusal } from "../support/refusal.js";
import { onPostgres } from "../support/test-database.js";
import {
  awaitCampaign,
  createCampaign,
  createLink,
  expectReason,
  type Harness,
  idOf,
  type Studio,
  seedGame,
  seedPurchase,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

describe("campaigns", () => {
  let harness: Harness;
  let studio: Studio;
  beforeAll(async () => {
    harness = await startHarness();
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  it("returns STATE_VERIFYING at once, with an unguessable key and its own top-up-only project", async () => {
    const { campaign, linked, appId, game } = await createCampaign(harness, studio);
    expect(campaign.state).toBe(Campaign_State.STATE_VERIFYING);
    expect(campaign.name).toMatch(new RegExp(`^${studio.name}/campaigns/[a-z0-9]+$`));
    expect(campaign.campaignKey).toMatch(/^ck_[A-Za-z0-9_-]{32}$/);
    expect(campaign).toMatchObject({
      game,
      listing: `${linked.link}/listings/${appId}`,
      fundingVisibility: FundingVisibility.EXACT_BALANCE,
    });
    expect(campaign.project).toMatch(new RegExp(`^${studio.name}/projects/[a-z0-9]+$`));
    const project = await harness.db.project.findUniqueOrThrow({ where: { id: idOf(campaign.project) } });
    expect(project).toMatchObject({ accountId: studio.accountId, topUpOnly: true, balanceNanos: 0n });
    const read = await awaitCampaign(studio.owner, campaign.name);
    expect(read.campaignKey).toBe(campaign.campaignKey);
    expect(read.etag).not.toBe(campaign.etag);
  });

  describe("create refusals", () => {
    it.each([
      ["a game of another account", async () => ({ game: await seedGame(harness, await seedStudio(harness)) })],
      ["a game that does not exist", async (s: Studio) => ({ game: `${s.name}/games/nope` })],
      ["a malformed game", async () => ({ game: "games/1" })],
      [
        "a listing the key does not own",
        async (s: Studio) => ({ listing: `${(await createLink(harness, s)).link}/listings/4000000000` }),
      ],
      [
        "a listing of an unknown link",
        async (s: Studio) => ({ listing: `${s.name}/distributorLinks/nope/listings/480` }),
      ],
      ["a malformed listing", async (s: Studio) => ({ listing: `${s.name}/distributorLinks/x/listings/0480` })],
      ["an unspecified funding visibility", async () => ({ fundingVisibility: FundingVisibility.UNSPECIFIED })],
    ])("refuses %s with INVALID_ARGUMENT", async (_, override) => {
      const linked = await createLink(harness, studio);
      const campaign = {
        game: await seedGame(harness, studio),
        listing: `${linked.link}/listings/${linked.appIds[0]}`,
        fundingVisibility: FundingVisibility.RUNWAY,
        ...(await override(studio)),
      };
      expect((await refusal(studio.owner.createCampaign({ parent: studio.name, campaign }))).code).toBe(
        Code.InvalidArgument,
      );
    });

    it("answers UNAVAILABLE when the platform cannot confirm the listing", async () => {
      const linked = await createLink(harness, studio);
      await harness.sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "http5xx", times: 5 });
      try {
        const found = await refusal(
          studio.owner.createCampaign({
            parent: studio.name,
            campaign: {
              game: await seedGame(harness, studio),
              listing: `${linked.link}/listings/${linked.appIds[0]}`,
              fundingVisibility: FundingVisibility.RUNWAY,
            },
          }),
        );
        expect(found.code).toBe(Code.Unavailable);
      } finally {
        await harness.sim.control.clearFaults();
      }
    });

    it("allows one campaign per app: PRODUCT_ALREADY_HAS_CAMPAIGN", async () => {
      const { linked } = await createCampaign(harness, studio);
      expectReason(
        await refusal(createCampaign(harness, studio, linked)),
        Code.AlreadyExists,
        "PRODUCT_ALREADY_HAS_CAMPAIGN",
      );
    });

    it("lets only one of two concurrent creates for an app win (PostgreSQL)", async (context) => {
      if (!onPostgres(harness.server.db)) context.skip();
      const linked = await createLink(harness, studio);
      const results = await Promise.allSettled([
        createCampaign(harness, studio, linked),
        createCampaign(harness, studio, linked),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected");
      expectReason(await refusal(Promise.reject(lost?.reason)), Code.AlreadyExists, "PRODUCT_ALREADY_HAS_CAMPAIGN");
    });
  });

  describe("verification against the platform", () => {
    it("VERIFIED when the store no longer sells the game", async () => {
      const linked = await createLink(harness, studio);
      await harness.sim.control.setStoreStatus(linked.appIds[0] as number, "removed");
      const { campaign } = await createCampaign(harness, studio, linked);
      const verified = await awaitCampaign(studio.owner, campaign.name);
      expect(verified.state).toBe(Campaign_State.VERIFIED);
      expect(verified.verification).toMatchObject({ keyOwnsApp: true, removedFromSale: true, endingAnnouncement: "" });
      expect(verified.verification?.verifyTime).toBeDefined();
    });

    it("VERIFIED when the studio announced the end", async () => {
      const linked = await createLink(harness, studio);
      const appId = linked.appIds[0] as number;
      await harness.sim.control.addAnnouncement(appId, { title: "Patch notes 1.2", contents: "Bug fixes." });
      await harness.sim.control.addAnnouncement(appId, {
        title: "A farewell",
        contents: "[p]Our servers will close on 1 March.[/p]",
      });
      const { campaign } = await createCampaign(harness, studio, linked);
      const verified = await awaitCampaign(studio.owner, campaign.name);
      expect(verified.state).toBe(Campaign_State.VERIFIED);
      expect(verified.verification).toMatchObject({
        keyOwnsApp: true,
        removedFromSale: false,
        endingAnnouncement: "A farewell",
      });
    });

    it("NEEDS_REVIEW when the game is on sale and nobody announced its end", async () => {
      const linked = await createLink(harness, studio);
      await harness.sim.control.addAnnouncement(linked.appIds[0] as number, {
        title: "Season 4 is here",
        contents: "New maps.",
      });
      const { campaign } = await createCampaign(harness, studio, linked);
      const reviewed = await awaitCampaign(studio.owner, campaign.name);
      expect(reviewed.state).toBe(Campaign_State.NEEDS_REVIEW);
      expect(reviewed.verification).toMatchObject({ keyOwnsApp: true, removedFromSale: false, endingAnnouncement: "" });
      expect(reviewed.verification?.explanation).not.toBe("");
    });

    it("NEEDS_REVIEW when the key no longer owns the game, even though the store dropped it", async () => {
      const { campaign, linked, appId } = await createCampaign(harness, studio);
      await awaitCampaign(studio.owner, campaign.name);
      // The platform forgets everything, then knows the key again without this app.
      await harness.sim.control.reset();
      await harness.sim.control.addPublisherKey(linked.publisherKey, [{ appid: appId + 1_000_000 }]);
      await harness.sim.control.setStoreStatus(appId, "removed");
      const retried = await studio.owner.retryVerification({ name: campaign.name });
      expect(retried.state).toBe(Campaign_State.STATE_VERIFYING);
      const reviewed = await awaitCampaign(studio.owner, campaign.name);
      expect(reviewed.state).toBe(Campaign_State.NEEDS_REVIEW);
      expect(reviewed.verification?.keyOwnsApp).toBe(false);
    });

    it("a rejected key marks the link STATE_CREDENTIAL_INVALID and the campaign NEEDS_REVIEW", async () => {
      const { campaign, linked } = await createCampaign(harness, studio);
      await awaitCampaign(studio.owner, campaign.name);
      await harness.sim.control.setStoreStatus(linked.appIds[0] as number, "removed");
      await harness.sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "rejectKey", times: 1 });
      await studio.owner.retryVerification({ name: campaign.name });
      const reviewed = await awaitCampaign(studio.owner, campaign.name);
      expect(reviewed.state).toBe(Campaign_State.NEEDS_REVIEW);
      expect(reviewed.verification?.explanation).toMatch(/rejected/);
      expect((await studio.owner.getDistributorLink({ name: linked.link })).state).toBe(
        DistributorLink_State.CREDENTIAL_INVALID,
      );
    });

    it("stays VERIFYING while the platform does not answer, and finishes on a later pass", async () => {
      const linked = await createLink(harness, studio);
      await harness.sim.control.setStoreStatus(linked.appIds[0] as number, "removed");
      await harness.sim.control.injectFault({ call: "appdetails", kind: "http5xx", times: 3 });
      const { campaign } = await createCampaign(harness, studio, linked);
      const waiting = await awaitCampaign(studio.owner, campaign.name, (c) => c.verification?.explanation !== "");
      expect(waiting.state).toBe(Campaign_State.STATE_VERIFYING);
      expect(waiting.verification?.explanation).toMatch(/did not answer/);
      // Another create wakes the job; its pass takes every campaign due, this one included.
      await createCampaign(harness, studio);
      const verified = await awaitCampaign(studio.owner, campaign.name);
      expect(verified.state).toBe(Campaign_State.VERIFIED);
    });
  });

  describe("RetryVerification", () => {
    it.each([
      ["NEEDS_REVIEW", true],
      ["DECLINED", true],
      ["VERIFIED", false],
      ["IN_REVIEW", false],
      ["REVOKED", false],
    ] as const)("from %s: allowed %s", async (state, allowed) => {
      const { campaign } = await createCampaign(harness, studio);
      await awaitCampaign(studio.owner, campaign.name);
      await harness.db.campaign.update({ where: { id: idOf(campaign.name) }, data: { state } });
      if (allowed) {
        const retried = await studio.owner.retryVerification({ name: campaign.name });
        expect(retried.state).toBe(Campaign_State.STATE_VERIFYING);
        expect((await awaitCampaign(studio.owner, campaign.name)).state).toBe(Campaign_State.NEEDS_REVIEW);
      } else {
        expectReason(
          await refusal(studio.owner.retryVerification({ name: campaign.name })),
          Code.FailedPrecondition,
          "NOT_RETRYABLE",
        );
      }
    });
  });

  describe("UpdateCampaign", () => {
    it("updates display_name and funding_visibility under a mask; ignores fields outside it", async () => {
      const { campaign } = await createCampaign(harness, studio);
      const read = await awaitCampaign(studio.owner, campaign.name);
      const updated = await studio.owner.updateCampaign({
        campaign: {
          name: campaign.name,
          displayName: "Renamed",
          fundingVisibility: FundingVisibility.FUNDED_ONLY,
          etag: read.etag,
        },
        updateMask: { paths: ["display_name"] },
      });
      expect(updated).toMatchObject({ displayName: "Renamed", fundingVisibility: FundingVisibility.EXACT_BALANCE });
      const visible = await studio.owner.updateCampaign({
        campaign: { name: campaign.name, fundingVisibility: FundingVisibility.RUNWAY },
        updateMask: { paths: ["fundingVisibility"] },
      });
      expect(visible.fundingVisibility).toBe(FundingVisibility.RUNWAY);
    });

    it.each([
      ["an unspecified visibility", { fundingVisibility: FundingVisibility.UNSPECIFIED }, ["funding_visibility"]],
      ["a mask naming an unknown field", { displayName: "x" }, ["nope"]],
    ])("refuses %s with INVALID_ARGUMENT", async (_, fields, paths) => {
      const { campaign } = await createCampaign(harness, studio);
      const found = await refusal(
        studio.owner.updateCampaign({ campaign: { name: campaign.name, ...fields }, updateMask: { paths } }),
      );
      expect(found.code).toBe(Code.InvalidArgument);
    });

    it("refuses a stale etag with ABORTED (ETAG_MISMATCH)", async () => {
      const { campaign } = await createCampaign(harness, studio);
      const read = await awaitCampaign(studio.owner, campaign.name);
      await studio.owner.updateCampaign({ campaign: { name: campaign.name, displayName: "One", etag: read.etag } });
      const stale = await refusal(
        studio.owner.updateCampaign({ campaign: { name: campaign.name, displayName: "Two", etag: read.etag } }),
      );
      expectReason(stale, Code.Aborted, "ETAG_MISMATCH");
      expect((await studio.owner.getCampaign({ name: campaign.name })).displayName).toBe("One");
    });

    it("lets exactly one of two concurrent updates with the same etag win (PostgreSQL)", async (context) => {
      if (!onPostgres(harness.server.db)) context.skip();
      const { campaign } = await createCampaign(harness, studio);
      const read = await awaitCampaign(studio.owner, campaign.name);
      for (let round = 0; round < 5; round += 1) {
        const current = await studio.owner.getCampaign({ name: campaign.name });
        const results = await Promise.allSettled(
          ["A", "B"].map((displayName) =>
            studio.owner.updateCampaign({
              campaign: { name: campaign.name, displayName: `${displayName}${round}`, etag: current.etag },
            }),
          ),
        );
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const lost = results.find((r) => r.status === "rejected");
        expectReason(await refusal(Promise.reject(lost?.reason)), Code.Aborted, "ETAG_MISMATCH");
      }
      expect(read.etag).not.toBe((await studio.owner.getCampaign({ name: campaign.name })).etag);
    });
  });

  describe("ListCampaigns", () => {
    it("filters on state and pages", async () => {
      const fresh = await seedStudio(harness);
      const made = [];
      for (let i = 0; i < 3; i += 1) made.push((await createCampaign(harness, fresh)).campaign.name);
      for (const name of made) await awaitCampaign(fresh.owner, name);
      await harness.db.campaign.update({ where: { id: idOf(made[1] as string) }, data: { state: "DECLINED" } });
      const review = await fresh.owner.listCampaigns({ parent: fresh.name, filter: 'state = "NEEDS_REVIEW"' });
      expect(review.campaigns.map((c) => c.name)).toEqual([made[0], made[2]]);
      const declined = await fresh.owner.listCampaigns({ parent: fresh.name, filter: 'state="DECLINED"' });
      expect(declined.campaigns.map((c) => c.name)).toEqual([made[1]]);
      const first = await fresh.owner.listCampaigns({ parent: fresh.name, pageSize: 2 });
      expect(first.campaigns.map((c) => c.name)).toEqual(made.slice(0, 2));
      const second = await fresh.owner.listCampaigns({
        parent: fresh.name,
        pageSize: 2,
        pageToken: first.nextPageToken,
      });
      expect(second.campaigns.map((c) => c.name)).toEqual(made.slice(2));
      expect(second.nextPageToken).toBe("");
      const otherFilter = await refusal(
        fresh.owner.listCampaigns({
          parent: fresh.name,
          pageSize: 2,
          pageToken: first.nextPageToken,
          filter: 'state = "VERIFIED"',
        }),
      );
      expect(otherFilter.code).toBe(Code.InvalidArgument);
    });

    it.each([
      'state = "BOGUS"',
      "state = NEEDS_REVIEW",
      'display_name = "x"',
      'state = "NEEDS_REVIEW" AND state = "VERIFIED"',
      'state != "VERIFIED"',
    ])("refuses the filter %s with INVALID_ARGUMENT", async (filter) => {
      expect((await refusal(studio.owner.listCampaigns({ parent: studio.name, filter }))).code).toBe(
        Code.InvalidArgument,
      );
    });
  });

  describe("DeleteCampaign", () => {
    it("deletes a campaign nobody bought from, with its empty project", async () => {
      const { campaign } = await createCampaign(harness, studio);
      await studio.owner.deleteCampaign({ name: campaign.name });
      expect((await refusal(studio.owner.getCampaign({ name: campaign.name }))).code).toBe(Code.NotFound);
      expect(await harness.db.project.findUnique({ where: { id: idOf(campaign.project) } })).toBeNull();
    });

    it("refuses with CAMPAIGN_TRANSFERRED once a transfer started", async () => {
      const { campaign } = await createCampaign(harness, studio);
      await harness.db.transfer.create({
        data: {
          id: `t-${idOf(campaign.name)}`,
          campaignId: idOf(campaign.name),
          sourceProjectId: "p-src",
          mode: "CONVERT",
          acknowledgeWarnings: false,
        },
      });
      expectReason(
        await refusal(studio.owner.deleteCampaign({ name: campaign.name })),
        Code.FailedPrecondition,
        "CAMPAIGN_TRANSFERRED",
      );
    });

    it("refuses with CAMPAIGN_TRANSFERRED once a purchase was made", async () => {
      const { campaign, linked } = await createCampaign(harness, studio);
      const offer = await studio.owner.createOffer({
        parent: campaign.name,
        offer: {
          displayName: "Five",
          price: { currencyCode: "USD", units: 5n },
          credit: { currencyCode: "USD", units: 3n },
        },
      });
      await seedPurchase(harness, {
        campaignId: idOf(campaign.name),
        offerId: idOf(offer.name),
        linkId: idOf(linked.link),
      });
      expectReason(
        await refusal(studio.owner.deleteCampaign({ name: campaign.name })),
        Code.FailedPrecondition,
        "CAMPAIGN_TRANSFERRED",
      );
    });
  });

  it("carries the latest transfer as its rows say", async () => {
    const { campaign } = await createCampaign(harness, studio);
    const campaignId = idOf(campaign.name);
    await harness.db.transfer.create({
      data: {
        id: `old-${campaignId}`,
        campaignId,
        sourceProjectId: "src",
        mode: "CONVERT",
        acknowledgeWarnings: false,
        state: "FAILED",
        createTime: new Date("2026-01-01T00:00:00Z"),
      },
    });
    await harness.db.transfer.create({
      data: {
        id: `new-${campaignId}`,
        campaignId,
        sourceProjectId: "src",
        mode: "MOVE",
        acknowledgeWarnings: true,
        requestId: "req-1",
        state: "AWAITING_ACKNOWLEDGEMENT",
        createTime: new Date("2026-02-01T00:00:00Z"),
        items: {
          create: [
            { resourceId: "disk", position: 1, state: "AWAITING_ACKNOWLEDGEMENT", detail: "disk cannot be copied" },
            { resourceId: "server", position: 0, state: "MOVED" },
          ],
        },
      },
    });
    const read = await studio.owner.getCampaign({ name: campaign.name });
    expect(read.transfer).toMatchObject({
      campaign: campaign.name,
      sourceProject: `${studio.name}/projects/src`,
      mode: Transfer_Mode.MOVE,
      resources: [`${studio.name}/projects/src/resources/server`, `${studio.name}/projects/src/resources/disk`],
      acknowledgeWarnings: true,
      requestId: "req-1",
      state: Transfer_State.AWAITING_ACKNOWLEDGEMENT,
      operation: `operations/new-${campaignId}`,
      items: [
        { resource: `${studio.name}/projects/src/resources/server`, state: TransferItem_State.MOVED, detail: "" },
        {
          resource: `${studio.name}/projects/src/resources/disk`,
          state: TransferItem_State.AWAITING_ACKNOWLEDGEMENT,
          detail: "disk cannot be copied",
        },
      ],
    });
  });
});
