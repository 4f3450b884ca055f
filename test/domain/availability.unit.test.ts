import { describe, expect, it } from "vitest";
import { type AvailabilityFacts, exceedsOutstandingLimit, unavailableReason } from "../../src/domain/availability.js";

const link = { sandbox: false, outstandingNanos: 0n, reservedNanos: 0n, outstandingLimitNanos: 100n };
const ok: AvailabilityFacts = {
  campaignState: "VERIFIED",
  ready: true,
  linkState: "ACTIVE",
  link,
  cheapestCreditNanos: 10n,
};

describe("unavailableReason", () => {
  it.each<[string, Partial<AvailabilityFacts>, string | undefined]>([
    ["purchasable", {}, undefined],
    ["verifying", { campaignState: "VERIFYING" }, "CAMPAIGN_NOT_VERIFIED"],
    ["needs review", { campaignState: "NEEDS_REVIEW" }, "CAMPAIGN_NOT_VERIFIED"],
    ["in review", { campaignState: "IN_REVIEW" }, "CAMPAIGN_NOT_VERIFIED"],
    ["declined", { campaignState: "DECLINED" }, "CAMPAIGN_NOT_VERIFIED"],
    ["revoked", { campaignState: "REVOKED" }, "CAMPAIGN_NOT_VERIFIED"],
    ["not transferred", { ready: false }, "CAMPAIGN_NOT_READY"],
    ["key rejected", { linkState: "CREDENTIAL_INVALID" }, "PUBLISHER_UNAVAILABLE"],
    ["limit reached", { link: { ...link, outstandingNanos: 95n } }, "PUBLISHER_LIMIT_REACHED"],
    ["limit reached by reservations", { link: { ...link, reservedNanos: 91n } }, "PUBLISHER_LIMIT_REACHED"],
    ["exactly at the limit is fine", { link: { ...link, outstandingNanos: 90n } }, undefined],
    // Credit reversed after it was settled is no extra room under the limit.
    [
      "outstanding below zero counts as zero",
      { link: { ...link, outstandingNanos: -50n, reservedNanos: 91n } },
      "PUBLISHER_LIMIT_REACHED",
    ],
    [
      "outstanding below zero, limit zero",
      { link: { ...link, outstandingNanos: -50n, outstandingLimitNanos: 0n } },
      "PUBLISHER_LIMIT_REACHED",
    ],
    ["outstanding below zero, room left", { link: { ...link, outstandingNanos: -50n, reservedNanos: 90n } }, undefined],
    ["sandbox has no limit", { link: { ...link, sandbox: true, outstandingNanos: 1000n } }, undefined],
    [
      "nothing on sale, limit full",
      { cheapestCreditNanos: undefined, link: { ...link, outstandingNanos: 100n } },
      "PUBLISHER_LIMIT_REACHED",
    ],
    ["nothing on sale, room left", { cheapestCreditNanos: undefined }, undefined],
    // DESIGN 3: NOT_VERIFIED, then NOT_READY, then PUBLISHER_UNAVAILABLE, then LIMIT.
    [
      "all at once: not verified first",
      {
        campaignState: "DECLINED",
        ready: false,
        linkState: "CREDENTIAL_INVALID",
        link: { ...link, outstandingNanos: 100n },
      },
      "CAMPAIGN_NOT_VERIFIED",
    ],
    [
      "not ready before publisher",
      { ready: false, linkState: "CREDENTIAL_INVALID", link: { ...link, outstandingNanos: 100n } },
      "CAMPAIGN_NOT_READY",
    ],
    [
      "publisher before limit",
      { linkState: "CREDENTIAL_INVALID", link: { ...link, outstandingNanos: 100n } },
      "PUBLISHER_UNAVAILABLE",
    ],
  ])("%s", (_, change, reason) => {
    expect(unavailableReason({ ...ok, ...change })).toBe(reason);
  });
});

describe("exceedsOutstandingLimit", () => {
  it("allows exactly the limit and refuses one nano over", () => {
    expect(exceedsOutstandingLimit({ ...link, outstandingNanos: 50n, reservedNanos: 40n }, 10n)).toBe(false);
    expect(exceedsOutstandingLimit({ ...link, outstandingNanos: 50n, reservedNanos: 40n }, 11n)).toBe(true);
  });
});
