import type { UnavailableReason } from "./availability.js";

export type FundingVisibility = "EXACT_BALANCE" | "RUNWAY" | "FUNDED_ONLY";

/**
 * Whole days the balance lasts at the last seven days' rate: balance / (spend / 7), rounded
 * down, so 0 means less than a day. Undefined when nothing was spent: nothing to project from
 * (spec 2.3).
 */
export function runwayDays(balanceNanos: bigint, sevenDaySpendNanos: bigint): bigint | undefined {
  if (sevenDaySpendNanos <= 0n) return undefined;
  if (balanceNanos <= 0n) return 0n;
  return (balanceNanos * 7n) / sevenDaySpendNanos;
}

export interface PublicFundingFacts {
  balanceNanos: bigint;
  sevenDaySpendNanos: bigint;
  visibility: FundingVisibility;
  unavailableReason: UnavailableReason | undefined;
}

/** What players may see (spec 2.3): balance only under EXACT_BALANCE, runway under it and RUNWAY. */
export interface PublicFundingView {
  funded: boolean;
  balanceNanos: bigint | undefined;
  runwayDays: bigint | undefined;
  visibility: FundingVisibility;
  purchasable: boolean;
  unavailableReason: UnavailableReason | "";
}

export function shapePublicFunding(facts: PublicFundingFacts): PublicFundingView {
  const { balanceNanos, visibility } = facts;
  const showsRunway = visibility === "EXACT_BALANCE" || visibility === "RUNWAY";
  return {
    funded: balanceNanos > 0n,
    balanceNanos: visibility === "EXACT_BALANCE" ? balanceNanos : undefined,
    runwayDays: showsRunway ? runwayDays(balanceNanos, facts.sevenDaySpendNanos) : undefined,
    visibility,
    purchasable: facts.unavailableReason === undefined,
    unavailableReason: facts.unavailableReason ?? "",
  };
}
