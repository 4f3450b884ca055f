import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import {
  createLink,
  type Harness,
  type Studio,
  seedGame,
  seedStudio,
  startHarness,
} from "../management/management-fixture.js";
import { type SeededCampaign, seedCampaign } from "../support/seed.js";
import { seedApiKey } from "../support/seed-hosting.js";
import { matrixCase, replayEachCase } from "./protocol-matrix.js";

// A sample of the management API (spec 4.6) over REST, Connect (JSON and binary), gRPC and
// gRPC-web: reads, a create and an update, a named refusal, NOT_FOUND for a caller who may not
// see the campaign (spec 5.3) and a call without a credential.

const { getCampaign, listCampaigns, createCampaign, updateCampaign } = CampaignService.method;

/** Fields of a campaign made per protocol that cannot be the same twice. */
const MADE = [
  "name",
  "game",
  "listing",
  "campaignKey",
  "project",
  "createTime",
  "updateTime",
  "webFundingUri",
] as const;

interface ListingAndGame {
  listing: string;
  game: string;
}

describe("management calls over every protocol", () => {
  let harness: Harness;
  /** A campaign every read case reads, and its account's owner key. */
  let seeded: SeededCampaign & { name: string; owner: string };
  /** The owner of another account: the campaign is not theirs to see. */
  let stranger: string;
  /** An account whose links and games the create case uses. */
  let studio: Studio;
  beforeAll(async () => {
    harness = await startHarness();
    const campaign = await seedCampaign(harness.db, { visibility: "RUNWAY" });
    seeded = {
      ...campaign,
      name: `accounts/${campaign.accountId}/campaigns/${campaign.campaignId}`,
      owner: await seedApiKey(harness.db, campaign.accountId, "OWNER"),
    };
    stranger = await seedApiKey(harness.db, (await seedCampaign(harness.db)).accountId, "OWNER");
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  const none = async () => undefined;
  const owner = () => seeded.owner;

  /** A campaign of its own, in an account of its own, for the update to change. */
  async function ownCampaign() {
    const campaign = await seedCampaign(harness.db);
    const name = `accounts/${campaign.accountId}/campaigns/${campaign.campaignId}`;
    return { name, token: await seedApiKey(harness.db, campaign.accountId, "OWNER") };
  }

  /** A link whose key owns a fresh app, and a game, for a campaign to be made of. */
  async function listingAndGame(): Promise<ListingAndGame> {
    const linked = await createLink(harness, studio);
    return { listing: `${linked.link}/listings/${linked.appIds[0]}`, game: await seedGame(harness, studio) };
  }

  function once<T>(make: () => Promise<T>): () => Promise<T> {
    let made: Promise<T> | undefined;
    return () => {
      made ??= make();
      return made;
    };
  }

  replayEachCase(
    () => harness.server,
    [
      matrixCase({
        name: "GetCampaign reads a campaign",
        method: getCampaign,
        prepare: none,
        token: owner,
        request: () => ({ name: seeded.name }),
        rest: () => ({ method: "GET", path: `/v1/${seeded.name}` }),
        expected: () => ({
          ok: true,
          message: {
            name: seeded.name,
            campaignKey: seeded.campaignKey,
            state: "VERIFIED",
            fundingVisibility: "FUNDING_VISIBILITY_RUNWAY",
          },
        }),
      }),
      matrixCase({
        name: "GetCampaign answers NOT_FOUND to a caller who may not see the campaign",
        method: getCampaign,
        prepare: none,
        token: () => stranger,
        request: () => ({ name: seeded.name }),
        rest: () => ({ method: "GET", path: `/v1/${seeded.name}` }),
        expected: { ok: false, code: Code.NotFound, httpStatus: 404, reason: undefined },
      }),
      matrixCase({
        name: "GetCampaign refuses a malformed name with INVALID_ARGUMENT",
        method: getCampaign,
        prepare: none,
        token: owner,
        request: () => ({ name: `accounts/${seeded.accountId}/campaigns/a%2Fb` }),
        rest: () => ({ method: "GET", path: `/v1/accounts/${seeded.accountId}/campaigns/a%252Fb` }),
        expected: { ok: false, code: Code.InvalidArgument, httpStatus: 400 },
      }),
      matrixCase({
        name: "ListCampaigns lists the account's campaigns, one page",
        method: listCampaigns,
        prepare: none,
        token: owner,
        request: () => ({ parent: `accounts/${seeded.accountId}`, pageSize: 10 }),
        rest: () => ({ method: "GET", path: `/v1/accounts/${seeded.accountId}/campaigns?pageSize=10` }),
        expected: () => ({ ok: true, message: { campaigns: [{ name: seeded.name }], nextPageToken: "" } }),
      }),
      matrixCase({
        name: "ListCampaigns without a credential is UNAUTHENTICATED",
        method: listCampaigns,
        prepare: none,
        request: () => ({ parent: `accounts/${seeded.accountId}` }),
        rest: () => ({ method: "GET", path: `/v1/accounts/${seeded.accountId}/campaigns` }),
        expected: { ok: false, code: Code.Unauthenticated, httpStatus: 401 },
      }),
      matrixCase({
        name: "CreateCampaign answers the new campaign, verifying",
        method: createCampaign,
        prepare: listingAndGame,
        token: () => studio.tokens.OWNER,
        request: ({ listing, game }) => ({
          parent: studio.name,
          campaign: { displayName: "Keep it alive", game, listing, fundingVisibility: "FUNDING_VISIBILITY_RUNWAY" },
        }),
        rest: ({ listing, game }) => ({
          method: "POST",
          path: `/v1/${studio.name}/campaigns`,
          body: { displayName: "Keep it alive", game, listing, fundingVisibility: "FUNDING_VISIBILITY_RUNWAY" },
        }),
        varies: MADE,
        expected: { ok: true, message: { displayName: "Keep it alive", state: "STATE_VERIFYING" } },
      }),
      matrixCase<ListingAndGame>({
        name: "CreateCampaign refuses a second campaign for one product, with its reason",
        method: createCampaign,
        // One product for all five protocols: each is refused the same, naming the same app.
        prepare: once(async () => {
          const made = await listingAndGame();
          await studio.owner.createCampaign({ parent: studio.name, campaign: { ...made, fundingVisibility: 1 } });
          return made;
        }),
        token: () => studio.tokens.OWNER,
        request: ({ listing, game }) => ({
          parent: studio.name,
          campaign: { game, listing, fundingVisibility: "FUNDING_VISIBILITY_RUNWAY" },
        }),
        rest: ({ listing, game }) => ({
          method: "POST",
          path: `/v1/${studio.name}/campaigns`,
          body: { game, listing, fundingVisibility: "FUNDING_VISIBILITY_RUNWAY" },
        }),
        expected: { ok: false, code: Code.AlreadyExists, httpStatus: 409, reason: "PRODUCT_ALREADY_HAS_CAMPAIGN" },
      }),
      matrixCase({
        name: "UpdateCampaign changes the fields its update mask names",
        method: updateCampaign,
        prepare: ownCampaign,
        token: ({ token }) => token,
        request: ({ name }) => ({
          campaign: { name, displayName: "Renamed", fundingVisibility: "FUNDING_VISIBILITY_FUNDED_ONLY" },
          updateMask: "displayName",
        }),
        rest: ({ name }) => ({
          method: "PATCH",
          path: `/v1/${name}?updateMask=displayName`,
          body: { displayName: "Renamed", fundingVisibility: "FUNDING_VISIBILITY_FUNDED_ONLY" },
        }),
        varies: MADE,
        expected: {
          ok: true,
          message: { displayName: "Renamed", fundingVisibility: "FUNDING_VISIBILITY_EXACT_BALANCE", etag: '"2"' },
        },
      }),
      matrixCase({
        name: "UpdateCampaign refuses a stale etag with ABORTED and its reason",
        method: updateCampaign,
        prepare: none,
        token: owner,
        request: () => ({
          campaign: { name: seeded.name, displayName: "Stale", etag: '"99"' },
          updateMask: "displayName",
        }),
        rest: () => ({
          method: "PATCH",
          path: `/v1/${seeded.name}?updateMask=displayName`,
          body: { displayName: "Stale", etag: '"99"' },
        }),
        expected: { ok: false, code: Code.Aborted, httpStatus: 409, reason: "ETAG_MISMATCH" },
      }),
    ],
  );
});
