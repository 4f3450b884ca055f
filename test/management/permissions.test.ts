import { type Client, Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import type { Role } from "../../src/domain/permissions.js";
import { refusal } from "../support/refusal.js";
import {
  clientFor,
  createCampaign,
  createLink,
  type Harness,
  idOf,
  newAppId,
  newPublisherKey,
  ROLES,
  type Studio,
  seedGame,
  seedPurchase,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

type CampaignClient = Client<typeof CampaignService>;

const ALL: readonly Role[] = ROLES;
const OWNER_BILLING: readonly Role[] = ["OWNER", "BILLING"];
const OWNER_ADMIN: readonly Role[] = ["OWNER", "ADMIN"];

const money = (units: bigint) => ({ currencyCode: "USD", units });

interface Row {
  method: string;
  allowed: readonly Role[];
  /** Prepares what the call needs (as the owner) and returns the call; `name` is what it names. */
  prepare: (h: Harness, s: Studio) => Promise<{ name: string; call: (c: CampaignClient) => Promise<unknown> }>;
}

async function offerOf(h: Harness, s: Studio) {
  const { campaign, linked } = await createCampaign(h, s);
  const offer = await s.owner.createOffer({
    parent: campaign.name,
    offer: { displayName: "Five", price: money(5n), credit: money(3n) },
  });
  return { campaign, linked, offer };
}

// Spec 5: links are written by owner and billing and read by all; ListSettlements is links.get;
// RetryVerification is campaigns update; funding travels with billing. The rest is ours (docs/roles.md).
const rows: Row[] = [
  {
    method: "CreateDistributorLink",
    allowed: OWNER_BILLING,
    prepare: async (h, s) => {
      const publisherKey = await newPublisherKey(h, [newAppId()]);
      return {
        name: s.name,
        call: (c) => c.createDistributorLink({ parent: s.name, distributorLink: { steam: { publisherKey } } }),
      };
    },
  },
  {
    method: "GetDistributorLink",
    allowed: ALL,
    prepare: async (h, s) => {
      const { link } = await createLink(h, s);
      return { name: link, call: (c) => c.getDistributorLink({ name: link }) };
    },
  },
  {
    method: "ListDistributorLinks",
    allowed: ALL,
    prepare: async (_, s) => ({ name: s.name, call: (c) => c.listDistributorLinks({ parent: s.name }) }),
  },
  {
    method: "UpdateDistributorLink",
    allowed: OWNER_BILLING,
    prepare: async (h, s) => {
      const { link } = await createLink(h, s);
      return {
        name: link,
        call: (c) => c.updateDistributorLink({ distributorLink: { name: link, displayName: "New" } }),
      };
    },
  },
  {
    method: "DeleteDistributorLink",
    allowed: OWNER_BILLING,
    prepare: async (h, s) => {
      const { link } = await createLink(h, s);
      return { name: link, call: (c) => c.deleteDistributorLink({ name: link }) };
    },
  },
  {
    method: "ListListings",
    allowed: ALL,
    prepare: async (h, s) => {
      const { link } = await createLink(h, s);
      return { name: link, call: (c) => c.listListings({ parent: link }) };
    },
  },
  {
    method: "ListSettlements",
    allowed: ALL,
    prepare: async (h, s) => {
      const { link } = await createLink(h, s);
      return { name: link, call: (c) => c.listSettlements({ parent: link }) };
    },
  },
  {
    method: "CreateCampaign",
    allowed: OWNER_ADMIN,
    prepare: async (h, s) => {
      const linked = await createLink(h, s);
      const game = await seedGame(h, s);
      const campaign = {
        game,
        listing: `${linked.link}/listings/${linked.appIds[0]}`,
        fundingVisibility: FundingVisibility.RUNWAY,
      };
      return { name: s.name, call: (c) => c.createCampaign({ parent: s.name, campaign }) };
    },
  },
  {
    method: "GetCampaign",
    allowed: ALL,
    prepare: async (h, s) => {
      const { campaign } = await createCampaign(h, s);
      return { name: campaign.name, call: (c) => c.getCampaign({ name: campaign.name }) };
    },
  },
  {
    method: "ListCampaigns",
    allowed: ALL,
    prepare: async (_, s) => ({ name: s.name, call: (c) => c.listCampaigns({ parent: s.name }) }),
  },
  {
    method: "UpdateCampaign",
    allowed: OWNER_ADMIN,
    prepare: async (h, s) => {
      const { campaign } = await createCampaign(h, s);
      return {
        name: campaign.name,
        call: (c) => c.updateCampaign({ campaign: { name: campaign.name, displayName: "New" } }),
      };
    },
  },
  {
    method: "DeleteCampaign",
    allowed: OWNER_ADMIN,
    prepare: async (h, s) => {
      const { campaign } = await createCampaign(h, s);
      return { name: campaign.name, call: (c) => c.deleteCampaign({ name: campaign.name }) };
    },
  },
  {
    method: "RetryVerification",
    allowed: OWNER_ADMIN,
    prepare: async (h, s) => {
      const { campaign } = await createCampaign(h, s);
      await h.db.campaign.update({
        where: { id: idOf(campaign.name) },
        data: { state: "DECLINED", verifyLeaseUntil: new Date(Date.now() + 3_600_000) },
      });
      return { name: campaign.name, call: (c) => c.retryVerification({ name: campaign.name }) };
    },
  },
  {
    method: "GetFunding",
    allowed: OWNER_BILLING,
    prepare: async (h, s) => {
      const { campaign } = await createCampaign(h, s);
      const name = `${campaign.name}/funding`;
      return { name, call: (c) => c.getFunding({ name }) };
    },
  },
  {
    method: "CreateOffer",
    allowed: OWNER_ADMIN,
    prepare: async (h, s) => {
      const { campaign } = await createCampaign(h, s);
      return {
        name: campaign.name,
        call: (c) =>
          c.createOffer({ parent: campaign.name, offer: { displayName: "Five", price: money(5n), credit: money(3n) } }),
      };
    },
  },
  {
    method: "GetOffer",
    allowed: ALL,
    prepare: async (h, s) => {
      const { offer } = await offerOf(h, s);
      return { name: offer.name, call: (c) => c.getOffer({ name: offer.name }) };
    },
  },
  {
    method: "ListOffers",
    allowed: ALL,
    prepare: async (h, s) => {
      const { campaign } = await offerOf(h, s);
      return { name: campaign.name, call: (c) => c.listOffers({ parent: campaign.name }) };
    },
  },
  {
    method: "UpdateOffer",
    allowed: OWNER_ADMIN,
    prepare: async (h, s) => {
      const { offer } = await offerOf(h, s);
      return { name: offer.name, call: (c) => c.updateOffer({ offer: { name: offer.name, displayName: "New" } }) };
    },
  },
  {
    method: "DeleteOffer",
    allowed: OWNER_ADMIN,
    prepare: async (h, s) => {
      const { offer } = await offerOf(h, s);
      return { name: offer.name, call: (c) => c.deleteOffer({ name: offer.name }) };
    },
  },
  {
    method: "GetPurchase",
    allowed: ALL,
    prepare: async (h, s) => {
      const { campaign, linked, offer } = await offerOf(h, s);
      const id = await seedPurchase(h, {
        campaignId: idOf(campaign.name),
        offerId: idOf(offer.name),
        linkId: idOf(linked.link),
      });
      const name = `${campaign.name}/purchases/${id}`;
      return { name, call: (c) => c.getPurchase({ name }) };
    },
  },
  {
    method: "ListPurchases",
    allowed: ALL,
    prepare: async (h, s) => {
      const { campaign } = await offerOf(h, s);
      return { name: campaign.name, call: (c) => c.listPurchases({ parent: campaign.name }) };
    },
  },
];

describe("permissions of the management methods (spec 5)", () => {
  let harness: Harness;
  let studio: Studio;
  let stranger: Studio;
  beforeAll(async () => {
    harness = await startHarness();
    studio = await seedStudio(harness);
    stranger = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  const cases = rows.flatMap((row) =>
    ROLES.map((role) => [row.method, role, row.allowed.includes(role), row] as const),
  );

  it.each(cases)("%s as %s: allowed %s", async (_, role, allowed, row) => {
    const { name, call } = await row.prepare(harness, studio);
    const client = clientFor(harness, studio.tokens[role]);
    if (allowed) {
      await expect(call(client)).resolves.toBeDefined();
    } else {
      const found = await refusal(call(client));
      expect(found).toEqual({ code: Code.NotFound, message: `${name} was not found.` });
    }
  });

  it.each(rows.map((row) => [row.method, row] as const))(
    "%s on another account's names: NOT_FOUND, worded as for nothing",
    async (_, row) => {
      const { name, call } = await row.prepare(harness, studio);
      const found = await refusal(call(stranger.owner));
      expect(found).toEqual({ code: Code.NotFound, message: `${name} was not found.` });
    },
  );

  it.each(["GetCampaign", "GetDistributorLink", "GetOffer", "GetPurchase", "GetFunding"])(
    "%s of a name that exists nowhere is NOT_FOUND with the same wording",
    async (method) => {
      const c = studio.owner;
      const absent: Record<string, [string, () => Promise<unknown>]> = {
        GetCampaign: [`${studio.name}/campaigns/nope`, () => c.getCampaign({ name: `${studio.name}/campaigns/nope` })],
        GetDistributorLink: [
          `${studio.name}/distributorLinks/nope`,
          () => c.getDistributorLink({ name: `${studio.name}/distributorLinks/nope` }),
        ],
        GetOffer: [
          `${studio.name}/campaigns/x/offers/nope`,
          () => c.getOffer({ name: `${studio.name}/campaigns/x/offers/nope` }),
        ],
        GetPurchase: [
          `${studio.name}/campaigns/x/purchases/nope`,
          () => c.getPurchase({ name: `${studio.name}/campaigns/x/purchases/nope` }),
        ],
        GetFunding: [
          `${studio.name}/campaigns/nope/funding`,
          () => c.getFunding({ name: `${studio.name}/campaigns/nope/funding` }),
        ],
      };
      const [name, call] = absent[method] as [string, () => Promise<unknown>];
      expect(await refusal(call())).toEqual({ code: Code.NotFound, message: `${name} was not found.` });
    },
  );

  it.each([
    ["GetCampaign", (c: CampaignClient) => c.getCampaign({ name: "accounts/a/campaigns" })],
    ["GetCampaign with a slash too many", (c: CampaignClient) => c.getCampaign({ name: "accounts/a/campaigns/b/c" })],
    ["GetDistributorLink", (c: CampaignClient) => c.getDistributorLink({ name: "accounts/a/links/b" })],
    ["ListCampaigns", (c: CampaignClient) => c.listCampaigns({ parent: "accounts/" })],
    ["GetOffer", (c: CampaignClient) => c.getOffer({ name: "accounts/a/campaigns/b/offers/../c" })],
    ["GetPurchase", (c: CampaignClient) => c.getPurchase({ name: "accounts/a/campaigns/b/purchase/c" })],
    ["GetFunding", (c: CampaignClient) => c.getFunding({ name: "accounts/a/campaigns/b" })],
    ["ListListings", (c: CampaignClient) => c.listListings({ parent: "accounts/a/distributorLinks/b/listings" })],
  ])("%s of a malformed name is INVALID_ARGUMENT", async (_, call) => {
    expect((await refusal(call(studio.owner))).code).toBe(Code.InvalidArgument);
  });

  it("refuses a call without a credential with UNAUTHENTICATED", async () => {
    const anonymous = harness.server.client(CampaignService, "connect");
    expect((await refusal(anonymous.listCampaigns({ parent: studio.name }))).code).toBe(Code.Unauthenticated);
  });
});
