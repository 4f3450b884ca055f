import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Campaign_State } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import type { CampaignState } from "../../gen/prisma/enums.js";
import { refusal } from "../support/refusal.js";
import { seedCampaign } from "../support/seed.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

const wire: Record<CampaignState, Campaign_State> = {
  VERIFYING: Campaign_State.STATE_VERIFYING,
  NEEDS_REVIEW: Campaign_State.NEEDS_REVIEW,
  IN_REVIEW: Campaign_State.IN_REVIEW,
  DECLINED: Campaign_State.DECLINED,
  VERIFIED: Campaign_State.VERIFIED,
  REVOKED: Campaign_State.REVOKED,
};
const states = Object.keys(wire) as CampaignState[];
const decisions = ["IN_REVIEW", "VERIFIED", "DECLINED", "REVOKED"] as const;

// The operator's transition table, written out: which decision each state accepts.
const allowed: Record<(typeof decisions)[number], CampaignState[]> = {
  IN_REVIEW: ["NEEDS_REVIEW"],
  VERIFIED: ["NEEDS_REVIEW", "IN_REVIEW"],
  DECLINED: ["NEEDS_REVIEW", "IN_REVIEW"],
  REVOKED: ["VERIFIED"],
};
const table = decisions.flatMap((to) => states.map((from) => [from, to, allowed[to].includes(from)] as const));

describe("OperatorService: reviews and decisions", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const operator = () => server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
  const seed = async (state: CampaignState) => {
    const seeded = await seedCampaign(server.db.database.prisma, { state });
    return { ...seeded, name: `accounts/${seeded.accountId}/campaigns/${seeded.campaignId}` };
  };

  it.each(table)("moves %s to %s: %s", async (from, to, ok) => {
    const { name, campaignId } = await seed(from);
    const call = operator().decideCampaign({ name, state: wire[to], explanation: `why ${to}` });
    if (ok) {
      const campaign = await call;
      expect(campaign).toMatchObject({ name, state: wire[to] });
      expect(campaign.verification?.explanation).toBe(`why ${to}`);
    } else {
      expect(await refusal(call)).toMatchObject({ code: Code.FailedPrecondition, reason: "REVIEW_NOT_ALLOWED" });
    }
    const row = await server.db.database.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } });
    expect(row.state).toBe(ok ? to : from);
  });

  it("keeps a default explanation when none is given, and refuses a decision that is not one", async () => {
    const { name } = await seed("NEEDS_REVIEW");
    const declined = await operator().decideCampaign({ name, state: Campaign_State.DECLINED });
    expect(declined.verification?.explanation).not.toBe("");
    for (const state of [
      Campaign_State.NEEDS_REVIEW,
      Campaign_State.STATE_VERIFYING,
      Campaign_State.STATE_UNSPECIFIED,
    ]) {
      expect(await refusal(operator().decideCampaign({ name, state }))).toMatchObject({ code: Code.InvalidArgument });
    }
  });

  it("answers an unknown campaign NOT_FOUND and a malformed name INVALID_ARGUMENT", async () => {
    const { accountId } = await seed("NEEDS_REVIEW");
    const unknown = operator().decideCampaign({
      name: `accounts/${accountId}/campaigns/nope`,
      state: Campaign_State.VERIFIED,
    });
    expect(await refusal(unknown)).toMatchObject({ code: Code.NotFound });
    expect(
      await refusal(operator().decideCampaign({ name: "campaigns/x", state: Campaign_State.VERIFIED })),
    ).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("decides over REST with the ErrorInfo reason on a refusal", async () => {
    const { name } = await seed("VERIFIED");
    const headers = { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` };
    const res = await server.rest("POST", `/v1/operator/${name}:decide`, { state: "DECLINED" }, headers);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(9);
    expect(res.body.details).toContainEqual(
      expect.objectContaining({ reason: "REVIEW_NOT_ALLOWED", domain: "campaign.encore.v1" }),
    );
    const revoked = await server.rest(
      "POST",
      `/v1/operator/${name}:decide`,
      { state: "REVOKED", explanation: "fraud" },
      headers,
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ state: "REVOKED", verification: { explanation: "fraud" } });
  });

  it("lists the review queue of every account, NEEDS_REVIEW by default, across pages", async () => {
    const queued = [];
    for (let i = 0; i < 5; i++) queued.push((await seed("NEEDS_REVIEW")).name);
    const inReview = (await seed("IN_REVIEW")).name;
    const listed: string[] = [];
    let pageToken = "";
    let pages = 0;
    do {
      const page = await operator().listReviews({ pageSize: 2, pageToken });
      listed.push(...page.campaigns.map((campaign) => campaign.name));
      expect(page.campaigns.every((campaign) => campaign.state === Campaign_State.NEEDS_REVIEW)).toBe(true);
      pageToken = page.nextPageToken;
      pages += 1;
    } while (pageToken);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining(queued));
    expect(listed).not.toContain(inReview);
    const filtered = await operator().listReviews({ filter: 'state = "IN_REVIEW"', pageSize: 1000 });
    expect(filtered.campaigns.map((campaign) => campaign.name)).toContain(inReview);
  });

  it.each(['state = "NOPE"', "state=NEEDS_REVIEW", 'displayName = "x"', 'state = "STATE_UNSPECIFIED"'])(
    "refuses the filter %s with INVALID_ARGUMENT",
    async (filter) => {
      expect(await refusal(operator().listReviews({ filter }))).toMatchObject({ code: Code.InvalidArgument });
    },
  );

  it("refuses a page token issued for another filter", async () => {
    for (let i = 0; i < 2; i++) await seed("DECLINED");
    const { nextPageToken } = await operator().listReviews({ filter: 'state = "DECLINED"', pageSize: 1 });
    expect(nextPageToken).not.toBe("");
    expect(await refusal(operator().listReviews({ pageToken: nextPageToken }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("lets only one of two concurrent decisions win (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    for (let round = 0; round < 5; round++) {
      const { name } = await seed("NEEDS_REVIEW");
      const results = await Promise.allSettled([
        operator().decideCampaign({ name, state: Campaign_State.VERIFIED }),
        operator().decideCampaign({ name, state: Campaign_State.DECLINED }),
      ]);
      const won = results.filter((result) => result.status === "fulfilled");
      expect(won).toHaveLength(1);
      const lost = results.find((result) => result.status === "rejected");
      expect(await refusal(Promise.reject(lost?.status === "rejected" ? lost.reason : undefined))).toMatchObject({
        reason: "REVIEW_NOT_ALLOWED",
      });
    }
  });
});
