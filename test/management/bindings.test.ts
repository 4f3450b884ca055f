import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Campaign_State } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { refusal } from "../support/refusal.js";
import {
  awaitCampaign,
  clientFor,
  createLink,
  expectReason,
  type Harness,
  type Studio,
  seedGame,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

// The same management calls over REST (google.api.http bindings) and gRPC as over Connect.

describe("management bindings over REST and gRPC", () => {
  let harness: Harness;
  let studio: Studio;
  beforeAll(async () => {
    harness = await startHarness();
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  const auth = (role: keyof Studio["tokens"] = "OWNER") => ({ authorization: `Bearer ${studio.tokens[role]}` });

  it("creates, reads, filters, updates, retries and deletes a campaign over REST", async () => {
    const linked = await createLink(harness, studio);
    const game = await seedGame(harness, studio);
    const listing = `${linked.link}/listings/${linked.appIds[0]}`;
    const body = { displayName: "Over REST", game, listing, fundingVisibility: "FUNDING_VISIBILITY_RUNWAY" };
    const created = await harness.server.rest("POST", `/v1/${studio.name}/campaigns`, body, auth());
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      ...body,
      state: "STATE_VERIFYING",
      campaignKey: expect.stringMatching(/^ck_/),
    });
    const name: string = created.body.name;
    await awaitCampaign(studio.owner, name);

    const again = await harness.server.rest("POST", `/v1/${studio.name}/campaigns`, body, auth());
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(Code.AlreadyExists);
    expect(again.body.details).toContainEqual(expect.objectContaining({ reason: "PRODUCT_ALREADY_HAS_CAMPAIGN" }));

    const listed = await harness.server.rest(
      "GET",
      `/v1/${studio.name}/campaigns?filter=${encodeURIComponent('state = "NEEDS_REVIEW"')}`,
      undefined,
      auth(),
    );
    expect(listed.status).toBe(200);
    expect(listed.body.campaigns.map((c: { name: string }) => c.name)).toContain(name);
    const badFilter = await harness.server.rest("GET", `/v1/${studio.name}/campaigns?filter=nope`, undefined, auth());
    expect(badFilter.status).toBe(400);

    const read = await harness.server.rest("GET", `/v1/${name}`, undefined, auth());
    const patched = await harness.server.rest(
      "PATCH",
      `/v1/${name}?updateMask=displayName`,
      { displayName: "Renamed", etag: read.body.etag },
      auth(),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.displayName).toBe("Renamed");
    const stale = await harness.server.rest(
      "PATCH",
      `/v1/${name}?updateMask=displayName`,
      { displayName: "Again", etag: read.body.etag },
      auth(),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.details).toContainEqual(expect.objectContaining({ reason: "ETAG_MISMATCH" }));

    const retried = await harness.server.rest("POST", `/v1/${name}:retryVerification`, {}, auth());
    expect(retried.body.state).toBe("STATE_VERIFYING");
    await awaitCampaign(studio.owner, name);
    await harness.db.campaign.update({ where: { id: name.split("/").pop() }, data: { state: "VERIFIED" } });
    const notRetryable = await harness.server.rest("POST", `/v1/${name}:retryVerification`, {}, auth());
    expect(notRetryable.status).toBe(400);
    expect(notRetryable.body.details).toContainEqual(expect.objectContaining({ reason: "NOT_RETRYABLE" }));

    const funding = await harness.server.rest("GET", `/v1/${name}/funding`, undefined, auth("BILLING"));
    expect(funding.body).toMatchObject({
      name: `${name}/funding`,
      balance: { currencyCode: "USD", units: "0", nanos: 0 },
      purchaseCount: "0",
    });
    const hidden = await harness.server.rest("GET", `/v1/${name}/funding`, undefined, auth("VIEWER"));
    expect(hidden.status).toBe(404);

    const offer = await harness.server.rest(
      "POST",
      `/v1/${name}/offers`,
      {
        displayName: "Five",
        price: { currencyCode: "USD", units: "5" },
        credit: { currencyCode: "USD", units: "3", nanos: 500_000_000 },
      },
      auth(),
    );
    expect(offer.body).toMatchObject({ active: true, credit: { units: "3", nanos: 500_000_000 } });
    const tooMuch = await harness.server.rest(
      "PATCH",
      `/v1/${offer.body.name}?updateMask=credit`,
      { credit: { currencyCode: "USD", units: "4" } },
      auth(),
    );
    expect(tooMuch.status).toBe(400);

    const deleted = await harness.server.rest("DELETE", `/v1/${name}`, undefined, auth());
    expect(deleted.status).toBe(200);
    expect((await harness.server.rest("GET", `/v1/${name}`, undefined, auth())).status).toBe(404);
  });

  it("creates and refuses links over REST, never echoing the key", async () => {
    const linked = await createLink(harness, studio);
    const link = await harness.server.rest("GET", `/v1/${linked.link}`, undefined, auth("VIEWER"));
    expect(link.body).toMatchObject({
      name: linked.link,
      fingerprint: expect.stringMatching(/^sha256:/),
      outstandingLimit: { currencyCode: "USD" },
    });
    expect(JSON.stringify(link.body)).not.toContain(linked.publisherKey);
    const rejected = await harness.server.rest(
      "POST",
      `/v1/${studio.name}/distributorLinks`,
      { steam: { publisherKey: "REJECTEDKEY42" } },
      auth(),
    );
    expect(rejected.status).toBe(400);
    expect(JSON.stringify(rejected.body)).not.toContain("REJECTEDKEY42");
    const listings = await harness.server.rest("GET", `/v1/${linked.link}/listings?pageSize=1`, undefined, auth());
    expect(listings.body.listings).toEqual([
      {
        name: `${linked.link}/listings/${linked.appIds[0]}`,
        appId: String(linked.appIds[0]),
        displayName: `Game ${linked.appIds[0]}`,
      },
    ]);
    const inUse = await harness.server.rest("DELETE", `/v1/${linked.link}`, undefined, auth("VIEWER"));
    expect(inUse.status).toBe(404);
  });

  it("serves the same calls over gRPC", async () => {
    const grpc = clientFor(harness, studio.tokens.OWNER, "grpc");
    const linked = await createLink(harness, studio);
    const game = await seedGame(harness, studio);
    const campaign = await grpc.createCampaign({
      parent: studio.name,
      campaign: {
        game,
        listing: `${linked.link}/listings/${linked.appIds[0]}`,
        fundingVisibility: FundingVisibility.FUNDED_ONLY,
      },
    });
    expect(campaign.state).toBe(Campaign_State.STATE_VERIFYING);
    expect((await grpc.listCampaigns({ parent: studio.name, pageSize: 1000 })).campaigns.map((c) => c.name)).toContain(
      campaign.name,
    );
    const settled = await awaitCampaign(grpc, campaign.name);
    expectReason(
      await refusal(grpc.updateCampaign({ campaign: { name: campaign.name, displayName: "x", etag: '"1"' } })),
      Code.Aborted,
      "ETAG_MISMATCH",
    );
    expectReason(
      await refusal(grpc.deleteDistributorLink({ name: linked.link })),
      Code.FailedPrecondition,
      "LINK_IN_USE",
    );
    expect(
      (await refusal(clientFor(harness, studio.tokens.VIEWER, "grpc").deleteCampaign({ name: campaign.name }))).code,
    ).toBe(Code.NotFound);
    expect(settled.state).not.toBe(Campaign_State.STATE_VERIFYING);
  });
});
