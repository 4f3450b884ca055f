import { describe, expect, it } from "vitest";
import { runwayDays, shapePublicFunding } from "../../src/domain/funding.js";

const DAY_OF_SPEND = 1_000_000_000n; // $1 a day: $7 over the week

describe("runwayDays", () => {
  it.each([
    ["nothing spent: nothing to project from", 50n * DAY_OF_SPEND, 0n, undefined],
    ["ten days left", 10n * DAY_OF_SPEND, 7n * DAY_OF_SPEND, 10n],
    ["rounded down", 10n * DAY_OF_SPEND + DAY_OF_SPEND / 2n, 7n * DAY_OF_SPEND, 10n],
    ["less than a day is 0", DAY_OF_SPEND / 2n, 7n * DAY_OF_SPEND, 0n],
    ["no balance is 0", 0n, 7n * DAY_OF_SPEND, 0n],
    ["a debt is 0", -5n, 7n * DAY_OF_SPEND, 0n],
  ])("%s", (_, balance, spend, days) => {
    expect(runwayDays(balance, spend)).toBe(days);
  });
});

describe("shapePublicFunding", () => {
  const base = {
    balanceNanos: 20n * DAY_OF_SPEND,
    sevenDaySpendNanos: 7n * DAY_OF_SPEND,
    unavailableReason: undefined,
  };

  it.each([
    ["EXACT_BALANCE", 20n * DAY_OF_SPEND, 20n],
    ["RUNWAY", undefined, 20n],
    ["FUNDED_ONLY", undefined, undefined],
  ] as const)("%s shows balance %s and runway %s", (visibility, balanceNanos, days) => {
    const view = shapePublicFunding({ ...base, visibility });
    expect(view).toEqual({
      funded: true,
      balanceNanos,
      runwayDays: days,
      visibility,
      purchasable: true,
      unavailableReason: "",
    });
  });

  it("is unfunded at zero, and says why it cannot be bought", () => {
    const view = shapePublicFunding({
      balanceNanos: 0n,
      sevenDaySpendNanos: 0n,
      visibility: "EXACT_BALANCE",
      unavailableReason: "CAMPAIGN_NOT_READY",
    });
    expect(view).toMatchObject({
      funded: false,
      balanceNanos: 0n,
      runwayDays: undefined,
      purchasable: false,
      unavailableReason: "CAMPAIGN_NOT_READY",
    });
  });
});
