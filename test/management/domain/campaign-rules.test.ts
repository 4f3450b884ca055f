import { describe, expect, it } from "vitest";
import { parseCampaignFilter } from "../../../src/domain/campaign-filter.js";
import { canRetryVerification, decideVerification } from "../../../src/domain/campaign-state.js";
import { etagOf, versionOfEtag } from "../../../src/domain/etag.js";
import { checkPricing } from "../../../src/domain/offer-pricing.js";
import {
  parseCampaignName,
  parseFundingName,
  parseListingName,
  parseOfferName,
} from "../../../src/domain/resource-names.js";
import { resolveUpdateMask } from "../../../src/domain/update-mask.js";

describe("decideVerification (spec 3.2)", () => {
  it.each([
    [{ keyOwnsApp: true, removedFromSale: true, endingAnnouncement: "" }, "VERIFIED"],
    [{ keyOwnsApp: true, removedFromSale: false, endingAnnouncement: "Farewell" }, "VERIFIED"],
    [{ keyOwnsApp: true, removedFromSale: true, endingAnnouncement: "Farewell" }, "VERIFIED"],
    [{ keyOwnsApp: true, removedFromSale: false, endingAnnouncement: "" }, "NEEDS_REVIEW"],
    [{ keyOwnsApp: false, removedFromSale: true, endingAnnouncement: "Farewell" }, "NEEDS_REVIEW"],
    [{ keyOwnsApp: false, removedFromSale: false, endingAnnouncement: "" }, "NEEDS_REVIEW"],
  ] as const)("%o -> %s", (facts, state) => {
    const outcome = decideVerification(facts);
    expect(outcome.state).toBe(state);
    expect(outcome.explanation).not.toBe("");
  });

  it.each([
    ["NEEDS_REVIEW", true],
    ["DECLINED", true],
    ["VERIFYING", false],
    ["IN_REVIEW", false],
    ["VERIFIED", false],
    ["REVOKED", false],
  ] as const)("retry from %s: %s", (state, retryable) => {
    expect(canRetryVerification(state)).toBe(retryable);
  });
});

describe("parseCampaignFilter", () => {
  it.each([
    ["", undefined],
    ['state = "NEEDS_REVIEW"', "NEEDS_REVIEW"],
    ['  state="STATE_VERIFYING" ', "VERIFYING"],
    ['state = "REVOKED"', "REVOKED"],
  ])("accepts %j", (filter, state) => {
    expect(parseCampaignFilter(filter)).toEqual({ ok: true, state });
  });

  it.each([
    'state = "VERIFYING"',
    "state = VERIFIED",
    'State = "VERIFIED"',
    'state = "verified"',
    'state:"VERIFIED"',
    'name = "x"',
  ])("refuses %j", (filter) => {
    expect(parseCampaignFilter(filter).ok).toBe(false);
  });
});

describe("etags", () => {
  it("round-trips versions and names none for anything else", () => {
    expect(versionOfEtag(etagOf(7))).toBe(7);
    for (const etag of ["7", '"0"', '"-1"', 'W/"7"', '"07"', '"99999999999"'])
      expect(versionOfEtag(etag)).toBeUndefined();
  });
});

describe("checkPricing (spec 8)", () => {
  const usd = (units: bigint, nanos = 0) => ({ currencyCode: "USD", units, nanos });
  it.each([
    [usd(10n), usd(7n), 30, { ok: true, priceNanos: 10_000_000_000n, creditNanos: 7_000_000_000n }],
    [
      usd(10n),
      usd(7n, 1),
      30,
      { ok: false, error: { field: "credit", problem: "ABOVE_MAXIMUM", maxCreditNanos: 7_000_000_000n } },
    ],
    [usd(0n, 990_000_000), usd(0n, 693_000_000), 30, { ok: true, priceNanos: 990_000_000n, creditNanos: 693_000_000n }],
    [usd(1n, 1), usd(0n, 1), 30, { ok: false, error: { field: "price", problem: "NOT_WHOLE_CENTS_USD" } }],
    [usd(1n), usd(0n), 30, { ok: false, error: { field: "credit", problem: "NOT_POSITIVE_USD" } }],
    [usd(1n), usd(1n), 0, { ok: true, priceNanos: 1_000_000_000n, creditNanos: 1_000_000_000n }],
  ])("price %o credit %o share %d", (price, credit, share, expected) => {
    expect(checkPricing(price, credit, share)).toEqual(expected);
  });

  it("checks a stored amount with a new one", () => {
    expect(checkPricing(5_000_000_000n, usd(4n), 30).ok).toBe(false);
  });
});

describe("resource names", () => {
  it("reads well-formed names", () => {
    expect(parseCampaignName("accounts/a1/campaigns/c-2")).toEqual({
      ok: true,
      value: { accountId: "a1", campaignId: "c-2" },
    });
    expect(parseOfferName("accounts/a/campaigns/c/offers/o")).toEqual({
      ok: true,
      value: { accountId: "a", campaignId: "c", offerId: "o" },
    });
    expect(parseListingName("accounts/a/distributorLinks/l/listings/480")).toEqual({
      ok: true,
      value: { accountId: "a", linkId: "l", appId: 480n },
    });
    expect(parseFundingName("accounts/a/campaigns/c/funding")).toEqual({
      ok: true,
      value: { accountId: "a", campaignId: "c" },
    });
  });

  it.each([
    "accounts/a/campaigns",
    "accounts/a/campaigns/",
    "/accounts/a/campaigns/c",
    "accounts/a/campaigns/c/",
    "accounts/a/Campaigns/c",
    "accounts/a/campaigns/c%2F",
    "accounts/../campaigns/c",
    `accounts/a/campaigns/${"x".repeat(65)}`,
  ])("refuses %j", (name) => {
    expect(parseCampaignName(name).ok).toBe(false);
  });

  it.each(["0480", "0", "4294967296", "12a", ""])("refuses the listing app id %j", (appId) => {
    expect(parseListingName(`accounts/a/distributorLinks/l/listings/${appId}`).ok).toBe(false);
  });
});

describe("resolveUpdateMask (AIP-134)", () => {
  const updatable = ["display_name", "funding_visibility"] as const;
  it("uses the fields present without a mask", () => {
    expect(resolveUpdateMask({ paths: [], updatable, present: ["display_name"] })).toEqual({
      ok: true,
      fields: new Set(["display_name"]),
    });
  });
  it("accepts JSON spellings, * and ignored paths; refuses unknown ones", () => {
    expect(
      resolveUpdateMask({ paths: ["fundingVisibility", "etag"], updatable, present: [], ignored: ["etag"] }),
    ).toEqual({
      ok: true,
      fields: new Set(["funding_visibility"]),
    });
    expect(resolveUpdateMask({ paths: ["*"], updatable, present: [] })).toEqual({
      ok: true,
      fields: new Set(updatable),
    });
    expect(resolveUpdateMask({ paths: ["game"], updatable, present: [] })).toEqual({ ok: false, path: "game" });
  });
});
