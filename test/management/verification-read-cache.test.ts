import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Campaign_State } from "../../gen/encore/campaign/v1/campaign_pb.js";
import {
  awaitCampaign,
  createCampaign,
  createLink,
  type Harness,
  type Studio,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

describe("verification with the public read cache on", () => {
  let harness: Harness;
  let studio: Studio;
  beforeAll(async () => {
    // A minute: an answer cached while the campaign was verifying would last the whole test.
    harness = await startHarness({ env: { PUBLIC_READ_CACHE_MS: "60000" } });
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  it("makes funding:get forget its cached answers once it verified a campaign", async () => {
    const linked = await createLink(harness, studio);
    await harness.sim.control.setStoreStatus(linked.appIds[0] as number, "removed");
    // The store check waits, so the game's first read comes while the campaign is verifying.
    await harness.sim.control.injectFault({ call: "appdetails", kind: "latency", ms: 600 });
    const { campaign } = await createCampaign(harness, studio, linked);
    const read = async () =>
      (await harness.server.rest("POST", "/v1/public/funding:get", { campaignKey: campaign.campaignKey })).body;
    expect(await read()).toMatchObject({ purchasable: false, unavailableReason: "CAMPAIGN_NOT_VERIFIED" });

    const verified = await awaitCampaign(studio.owner, campaign.name);
    expect(verified.state).toBe(Campaign_State.VERIFIED);
    expect(await read()).not.toMatchObject({ unavailableReason: "CAMPAIGN_NOT_VERIFIED" });
  });
});
