import { randomBytes, randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { PurchaseChannel, PurchaseState } from "../../gen/prisma/enums.js";
import { refusal } from "../support/refusal.js";
import { DOLLAR, seedOffer } from "../support/seed.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// ListPurchases' filter by state, channel and creation time (the console's purchases table),
// beside `reversed`, joined with AND and paged newest first.
const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12));

describe("ListPurchases filtered by state and time", () => {
  let server: TestServer;
  let studio: Studio;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer();
    const db = server.db.database.prisma;
    studio = await seedStudio(db);
    const offerId = await seedOffer(db, studio.campaignId);
    const purchase = async (
      label: string,
      state: PurchaseState,
      day: number,
      reversed = false,
      channel?: PurchaseChannel,
    ) => {
      const id = randomUUID();
      ids[label] = id;
      await db.purchase.create({
        data: {
          id,
          campaignId: studio.campaignId,
          offerId,
          linkId: studio.linkId,
          orderId: BigInt(`0x${randomBytes(7).toString("hex")}`),
          playerId: "76561198000000001",
          state,
          priceNanos: 5n * DOLLAR,
          creditNanos: 3n * DOLLAR,
          sandbox: false,
          language: "en",
          ...(channel ? { channel } : {}),
          createTime: at(day),
          ...(state === "CREDITED" ? { creditTime: at(day) } : {}),
        },
      });
      if (reversed) {
        await db.purchaseReversal.create({
          data: {
            purchaseId: id,
            linkId: studio.linkId,
            kind: "REFUNDED",
            reversedNanos: 3n * DOLLAR,
            platformTime: at(day + 1),
            seenTime: at(day + 1),
            updateTime: at(day + 1),
          },
        });
      }
    };
    await purchase("credited1", "CREDITED", 1);
    await purchase("failed2", "FAILED", 2);
    await purchase("credited3", "CREDITED", 3, true);
    await purchase("cancelled4", "CANCELLED", 4);
    await purchase("credited5", "CREDITED", 5);
    await purchase("initiated6", "INITIATED", 6);
    // Web purchases (docs/settlement.md "Abandoned web orders").
    await purchase("abandoned7", "ABANDONED", 7, false, "WEB");
    await purchase("webCredited8", "CREDITED", 8, false, "WEB");
  });
  afterAll(() => server.close());

  const list = (filter: string, pageSize = 50, pageToken = "") =>
    server
      .client(CampaignService, "connect", studio.tokens.VIEWER)
      .listPurchases({ parent: studio.name, filter, pageSize, pageToken });
  const labels = (names: string[]) =>
    names.map((name) => Object.entries(ids).find(([, id]) => name.endsWith(`/${id}`))?.[0]);

  it.each([
    ['state = "STATE_CREDITED"', ["webCredited8", "credited5", "credited3", "credited1"]],
    ['state = "STATE_FAILED"', ["failed2"]],
    [
      `create_time >= "${at(3).toISOString()}"`,
      ["webCredited8", "abandoned7", "initiated6", "credited5", "cancelled4", "credited3"],
    ],
    [`create_time < "2026-11-03T00:00:00Z"`, ["failed2", "credited1"]],
    [
      `state = "STATE_CREDITED" AND create_time >= "2026-11-02T00:00:00Z" AND create_time < "2026-11-05T12:00:00Z"`,
      ["credited3"],
    ],
    ['state = "STATE_CREDITED" AND reversed = false', ["webCredited8", "credited5", "credited1"]],
    ["reversed = true", ["credited3"]],
    ['state = "STATE_ABANDONED"', ["abandoned7"]],
    ['channel = "CHANNEL_WEB"', ["webCredited8", "abandoned7"]],
    ['channel = "CHANNEL_GAME" AND state = "STATE_CREDITED"', ["credited5", "credited3", "credited1"]],
  ])("%s", async (filter, expected) => {
    expect(labels((await list(filter)).purchases.map((p) => p.name))).toEqual(expected);
  });

  it("pages a filtered list newest first, and refuses its token under another filter", async () => {
    const filter = 'state = "STATE_CREDITED" AND channel = "CHANNEL_GAME"';
    const first = await list(filter, 2);
    const second = await list(filter, 2, first.nextPageToken);
    expect(labels([...first.purchases, ...second.purchases].map((p) => p.name))).toEqual([
      "credited5",
      "credited3",
      "credited1",
    ]);
    expect(second.nextPageToken).toBe("");
    expect((await refusal(list('state = "STATE_FAILED"', 2, first.nextPageToken))).code).toBe(Code.InvalidArgument);
  });

  it("is served over REST with the filter as a query parameter", async () => {
    const filter = encodeURIComponent('state = "STATE_CANCELLED"');
    const res = await server.rest("GET", `/v1/${studio.name}/purchases?filter=${filter}`, undefined, {
      authorization: `Bearer ${studio.tokens.VIEWER}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.purchases.map((p: { state: string }) => p.state)).toEqual(["STATE_CANCELLED"]);
    const web = encodeURIComponent('channel = "CHANNEL_WEB"');
    const webRes = await server.rest("GET", `/v1/${studio.name}/purchases?filter=${web}`, undefined, {
      authorization: `Bearer ${studio.tokens.VIEWER}`,
    });
    expect(webRes.body.purchases.map((p: { state: string; channel: string }) => [p.state, p.channel])).toEqual([
      ["STATE_CREDITED", "CHANNEL_WEB"],
      ["STATE_ABANDONED", "CHANNEL_WEB"],
    ]);
    expect(res.body.purchases[0].channel).toBe("CHANNEL_GAME");
  });

  it.each([
    'state = "CREDITED"',
    'state = "STATE_UNSPECIFIED"',
    "state = STATE_CREDITED",
    'state != "STATE_CREDITED"',
    'create_time >= "yesterday"',
    'create_time = "2026-11-01T00:00:00Z"',
    'state = "STATE_CREDITED" AND state = "STATE_FAILED"',
    'reversed = "true"',
    "player = 1",
    'channel = "WEB"',
    'channel = "CHANNEL_UNSPECIFIED"',
    'channel = "constructor"',
    'state = "constructor"',
    'channel = "CHANNEL_WEB" AND channel = "CHANNEL_GAME"',
  ])("refuses %s with INVALID_ARGUMENT", async (filter) => {
    expect((await refusal(list(filter))).code).toBe(Code.InvalidArgument);
  });
});
