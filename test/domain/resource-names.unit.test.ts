import { describe, expect, it } from "vitest";
import { resources } from "../../src/domain/resource-names.js";

describe("resource names", () => {
  it("reads well-formed names", () => {
    expect(resources.campaign.parse("accounts/a1/campaigns/c-2")).toEqual({
      ok: true,
      value: { accountId: "a1", campaignId: "c-2" },
    });
    expect(resources.offer.parse("accounts/a/campaigns/c/offers/o")).toEqual({
      ok: true,
      value: { accountId: "a", campaignId: "c", offerId: "o" },
    });
    expect(resources.listing.parse("accounts/a/distributorLinks/l/listings/480")).toEqual({
      ok: true,
      value: { accountId: "a", linkId: "l", appId: 480n },
    });
    expect(resources.funding.parse("accounts/a/campaigns/c/funding")).toEqual({
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
    expect(resources.campaign.parse(name).ok).toBe(false);
  });

  it.each(["0480", "0", "4294967296", "12a", ""])("refuses the listing app id %j", (appId) => {
    expect(resources.listing.parse(`accounts/a/distributorLinks/l/listings/${appId}`).ok).toBe(false);
  });

  it.each(Object.entries(resources))("writes back what it reads: %s", (_, resource) => {
    // One sample name per pattern: each slot filled with an id its rule accepts.
    const sample = resource.pattern.replace(/\{(\w+)\}/g, (_slot, word: string) =>
      word === "app_id" ? "480" : `${word}-1`,
    );
    const parsed = resource.parse(sample);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(resource.format(parsed.value as never)).toBe(sample);
  });

  it("refuses a malformed name with the pattern it must have", () => {
    expect(resources.link.mustBe("parent")).toBe(
      '"parent" must be accounts/{account}/distributorLinks/{distributor_link}.',
    );
  });
});
