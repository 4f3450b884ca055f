import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { matrixCase, replayEachCase } from "./protocol-matrix.js";

// The four public calls of spec 2 (funding:get, offers:list, purchases:begin and
// purchases:complete), answered and refused alike over REST, Connect (JSON and binary), gRPC and
// gRPC-web, against the Steam simulator.

const { getPublicFunding, listPublicOffers, beginPurchase, completePurchase } = CampaignService.method;

describe("public calls over every protocol", () => {
  let f: PurchaseFixture;
  /** A verified, ready campaign with one offer, read by the calls that change nothing. */
  let shop: SeededShop;
  /** A campaign still waiting for review: its public calls are refused. */
  let unverified: SeededShop;
  beforeAll(async () => {
    f = await startPurchaseFixture();
    shop = await f.shop();
    unverified = await f.shop({ state: "NEEDS_REVIEW" });
  });
  afterAll(() => f.close());

  const none = async () => undefined;
  const post = (path: string, body: Record<string, unknown>) => ({ method: "POST", path, body });

  /** A new player of `shop`'s game, with a ticket of its own (tickets are single-use). */
  async function player() {
    return { ticket: (await f.player(shop)).ticket };
  }

  /** A purchase begun and approved on a shop of its own, so its credit shows the same funding. */
  async function approved() {
    const own = await f.shop();
    const { ticket } = await f.player(own);
    const begun = await f.begin({ campaignKey: own.campaignKey, offerId: own.offerId, authTicket: ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    return { campaignKey: own.campaignKey, purchase, orderId };
  }

  replayEachCase(
    () => f.server,
    [
      matrixCase({
        name: "funding:get answers a verified campaign's funding",
        method: getPublicFunding,
        prepare: none,
        request: () => ({ campaignKey: shop.campaignKey }),
        rest: () => post("/v1/public/funding:get", { campaignKey: shop.campaignKey }),
        expected: {
          ok: true,
          message: { funded: false, visibility: "FUNDING_VISIBILITY_EXACT_BALANCE", purchasable: true },
        },
      }),
      matrixCase({
        name: "funding:get refuses an unknown key with NOT_FOUND",
        method: getPublicFunding,
        prepare: none,
        request: () => ({ campaignKey: "ck_nobody" }),
        rest: () => post("/v1/public/funding:get", { campaignKey: "ck_nobody" }),
        expected: { ok: false, code: Code.NotFound, httpStatus: 404, reason: undefined },
      }),
      matrixCase({
        name: "offers:list answers the offers on sale",
        method: listPublicOffers,
        prepare: none,
        request: () => ({ campaignKey: shop.campaignKey }),
        rest: () => post("/v1/public/offers:list", { campaignKey: shop.campaignKey }),
        expected: () => ({
          ok: true,
          message: {
            offers: [{ offerId: shop.offerId, price: { currencyCode: "USD", units: "5", nanos: 0 } }],
            purchasable: true,
            unavailableReason: "",
          },
        }),
      }),
      matrixCase({
        name: "offers:list refuses a missing campaign key with INVALID_ARGUMENT",
        method: listPublicOffers,
        prepare: none,
        request: () => ({}),
        rest: () => post("/v1/public/offers:list", {}),
        expected: { ok: false, code: Code.InvalidArgument, httpStatus: 400 },
      }),
      matrixCase({
        name: "purchases:begin opens an order for a player",
        method: beginPurchase,
        prepare: player,
        request: ({ ticket }) => ({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: ticket }),
        rest: ({ ticket }) =>
          post("/v1/public/purchases:begin", {
            campaignKey: shop.campaignKey,
            offerId: shop.offerId,
            authTicket: ticket,
          }),
        varies: ["purchase", "orderId"],
        expected: { ok: true, message: { purchase: "<varies>", orderId: "<varies>" } },
      }),
      matrixCase({
        name: "purchases:begin refuses a ticket the platform does not vouch for",
        method: beginPurchase,
        prepare: none,
        request: () => ({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: "DEADBEEF" }),
        rest: () =>
          post("/v1/public/purchases:begin", {
            campaignKey: shop.campaignKey,
            offerId: shop.offerId,
            authTicket: "DEADBEEF",
          }),
        expected: { ok: false, code: Code.Unauthenticated, httpStatus: 401, reason: "PLAYER_NOT_AUTHENTICATED" },
      }),
      matrixCase({
        name: "purchases:begin refuses a campaign not verified, with its reason and PreconditionFailure",
        method: beginPurchase,
        prepare: none,
        request: () => ({ campaignKey: unverified.campaignKey, offerId: unverified.offerId, authTicket: "AB" }),
        rest: () =>
          post("/v1/public/purchases:begin", {
            campaignKey: unverified.campaignKey,
            offerId: unverified.offerId,
            authTicket: "AB",
          }),
        expected: { ok: false, code: Code.FailedPrecondition, httpStatus: 400, reason: "CAMPAIGN_NOT_VERIFIED" },
      }),
      matrixCase({
        name: "purchases:complete credits an approved order",
        method: completePurchase,
        prepare: approved,
        request: ({ campaignKey, purchase, orderId }) => ({ campaignKey, purchase, orderId, authorized: true }),
        rest: ({ campaignKey, purchase, orderId }) =>
          post("/v1/public/purchases:complete", { campaignKey, purchase, orderId, authorized: true }),
        expected: {
          ok: true,
          message: {
            state: "STATE_CREDITED",
            funding: { funded: true, balance: { currencyCode: "USD", units: "3", nanos: 0 }, purchasable: true },
          },
        },
      }),
      matrixCase({
        name: "purchases:complete refuses a purchase it does not know with NOT_FOUND",
        method: completePurchase,
        prepare: none,
        request: () => ({ campaignKey: shop.campaignKey, purchase: "nope", orderId: "1", authorized: true }),
        rest: () =>
          post("/v1/public/purchases:complete", {
            campaignKey: shop.campaignKey,
            purchase: "nope",
            orderId: "1",
            authorized: true,
          }),
        expected: { ok: false, code: Code.NotFound, httpStatus: 404 },
      }),
    ],
  );
});
