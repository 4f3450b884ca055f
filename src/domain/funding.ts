import type { UnavailableReason } from "./availability.js";

export type FundingVisibility = "EXACT_BALANCE" | "RUNWAY" | "FUNDED_ONLY";

/** Spend, runway and the purchases GetFunding counts look back this many days (spec 2.3, 4.6). */
export const SPEND_WINDOW_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The seven days before `now`, bounds included: since <= time <= until. Every read of the
 * window (GetFunding, the public funding, the runway) uses this one convention.
 */
export interface SpendWindow {
  since: Date;
  until: Date;
}

export function spendWindow(now: Date): SpendWindow {
  return { since: new Date(now.getTime() - SPEND_WINDOW_DAYS * DAY_MS), until: now };
}

/**
 * Whole days the balance lasts at the last seven days' rate: balance / (spend / 7), rounded
 * down, so 0 means less than a day. Undefined when nothing was spent: nothing to project from
 * (spec 2.3).
 */
export function runwayDays(balanceNanos: bigint, sevenDaySpendNanos: bigint): bigint | undefined {
  if (sevenDaySpendNanos <= 0n) return undefined;
  if (balanceNanos <= 0n) return 0n;
  return (balanceNanos * BigInt(SPEND_WINDOW_DAYS)) / sevenDaySpendNanos;
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
