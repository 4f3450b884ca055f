import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "../support/refusal.js";
import {
  awaitCampaign,
  clientFor,
  createCampaign,
  createLink,
  expectReason,
  type Harness,
  idOf,
  type Studio,
  seedGame,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

// Web funding per campaign (docs/game-integration.md, "Funding from the web"): off until the
// studio turns it on, through CreateCampaign or UpdateCampaign's mask with the etag rules of the
// other fields, audited; every read carries the public page's link on PUBLIC_URL, on or off.
const PUBLIC_URL = "https://fund.example.com";

describe("web funding in the management API", () => {
  let harness: Harness;
  let studio: Studio;
  beforeAll(async () => {
    harness = await startHarness({ env: { PUBLIC_URL } });
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  const page = (campaignKey: string) => `${PUBLIC_URL}/fund/${campaignKey}`;
  const auth = () => ({ authorization: `Bearer ${studio.tokens.OWNER}` });

  it("is off on a new campaign, and its page's link is shown all the same, over every protocol", async () => {
    const { campaign } = await createCampaign(harness, studio);
    expect(campaign).toMatchObject({ webFundingEnabled: false, webFundingUri: page(campaign.campaignKey) });
    for (const protocol of ["grpc", "grpc-web", "connect-json"] as const) {
      const read = await clientFor(harness, studio.tokens.VIEWER, protocol).getCampaign({ name: campaign.name });
      expect(read).toMatchObject({ webFundingEnabled: false, webFundingUri: page(campaign.campaignKey) });
    }
    const rest = await harness.server.rest("GET", `/v1/${campaign.name}`, undefined, auth());
    expect(rest.body).toMatchObject({ webFundingEnabled: false, webFundingUri: page(campaign.campaignKey) });
    const listed = await studio.owner.listCampaigns({ parent: studio.name, pageSize: 1000 });
    expect(listed.campaigns.find((c) => c.name === campaign.name)).toMatchObject({
      webFundingEnabled: false,
      webFundingUri: page(campaign.campaignKey),
    });
  });

  it("is on from the start when CreateCampaign asks for it", async () => {
    const link = await createLink(harness, studio);
    const campaign = await studio.owner.createCampaign({
      parent: studio.name,
      campaign: {
        game: await seedGame(harness, studio),
        listing: `${link.link}/listings/${link.appIds[0]}`,
        fundingVisibility: 1,
        webFundingEnabled: true,
      },
    });
    expect(campaign.webFundingEnabled).toBe(true);
    expect((await studio.owner.getCampaign({ name: campaign.name })).webFundingEnabled).toBe(true);
  });

  it("turns on and off under the mask, with the etag, and is audited", async () => {
    const { campaign } = await createCampaign(harness, studio);
    const read = await awaitCampaign(studio.owner, campaign.name);
    const on = await studio.owner.updateCampaign({
      campaign: { name: campaign.name, webFundingEnabled: true, etag: read.etag },
      updateMask: { paths: ["web_funding_enabled"] },
    });
    expect(on).toMatchObject({ webFundingEnabled: true, webFundingUri: page(campaign.campaignKey) });
    expect(on.etag).not.toBe(read.etag);
    // A stale etag changes nothing.
    const stale = await refusal(
      studio.owner.updateCampaign({
        campaign: { name: campaign.name, webFundingEnabled: false, etag: read.etag },
        updateMask: { paths: ["web_funding_enabled"] },
      }),
    );
    expectReason(stale, Code.Aborted, "ETAG_MISMATCH");
    expect((await studio.owner.getCampaign({ name: campaign.name })).webFundingEnabled).toBe(true);
    // Without a mask, false is proto3's unset: nothing changes (AIP-134).
    const unmasked = await studio.owner.updateCampaign({
      campaign: { name: campaign.name, displayName: "Renamed", webFundingEnabled: false },
    });
    expect(unmasked).toMatchObject({ displayName: "Renamed", webFundingEnabled: true });
    // The mask names it: off. The output-only link in a mask is accepted and ignored.
    const off = await studio.owner.updateCampaign({
      campaign: { name: campaign.name, webFundingEnabled: false, webFundingUri: "https://elsewhere.example" },
      updateMask: { paths: ["web_funding_enabled", "web_funding_uri"] },
    });
    expect(off).toMatchObject({ webFundingEnabled: false, webFundingUri: page(campaign.campaignKey) });
    const row = await harness.db.campaign.findUniqueOrThrow({ where: { id: idOf(campaign.name) } });
    expect(row.webFundingEnabled).toBe(false);

    const events = await harness.db.auditEvent.findMany({
      where: { resource: campaign.name, method: { endsWith: "UpdateCampaign" } },
      orderBy: { createTime: "asc" },
    });
    expect(events.map((event) => [event.changedFields, event.code])).toEqual([
      [["web_funding_enabled"], 0],
      [["web_funding_enabled"], Code.Aborted],
      [["display_name"], 0],
      [["web_funding_enabled", "web_funding_uri"], 0],
    ]);
  });

  it("turns on over REST with the mask as a query parameter; a viewer may not", async () => {
    const { campaign } = await createCampaign(harness, studio);
    await awaitCampaign(studio.owner, campaign.name);
    const read = await harness.server.rest("GET", `/v1/${campaign.name}`, undefined, auth());
    const patched = await harness.server.rest(
      "PATCH",
      `/v1/${campaign.name}?updateMask=webFundingEnabled`,
      { webFundingEnabled: true, etag: read.body.etag },
      auth(),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ webFundingEnabled: true, webFundingUri: page(campaign.campaignKey) });
    const viewer = clientFor(harness, studio.tokens.VIEWER);
    const refused = await refusal(
      viewer.updateCampaign({
        campaign: { name: campaign.name, webFundingEnabled: false },
        updateMask: { paths: ["web_funding_enabled"] },
      }),
    );
    expect(refused).toEqual({ code: Code.NotFound, message: `${campaign.name} was not found.` });
    expect((await viewer.getCampaign({ name: campaign.name })).webFundingEnabled).toBe(true);
  });
});
