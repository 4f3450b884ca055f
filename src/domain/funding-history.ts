import { runwayDays, SPEND_WINDOW_DAYS } from "./funding.js";

// A campaign's funding day by day (GetFundingHistory): what a studio charts. Days are
// UTC calendar days named "YYYY-MM-DD"; amounts are nano-USD, never a float.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Spend over this many days (the day itself included) projects the runway, as spec 2.3's week does. */
const RUNWAY_DAYS = SPEND_WINDOW_DAYS;

/** What moved a project's balance on one day, summed by ledger entry type (signed as stored). */
export interface LedgerDay {
  playerTopUpNanos: bigint;
  developerTopUpNanos: bigint;
  /** Negative: usage is a debit. */
  usageNanos: bigint;
  /** Negative: a reversal is a debit. */
  reversalNanos: bigint;
}

/** Purchases credited on one day (by their credit time, sandbox excluded, as GetFunding counts them). */
export interface PurchaseDay {
  count: bigint;
  creditNanos: bigint;
}

export interface FundingHistoryFacts {
  /** The project's balance now. */
  balanceNanos: bigint;
  /** Every day from the window's first day less six (for the runway) to the latest entry. */
  ledger: ReadonlyMap<string, LedgerDay>;
  purchases: ReadonlyMap<string, PurchaseDay>;
}

export interface FundingDayView {
  start: Date;
  closingBalanceNanos: bigint;
  spendNanos: bigint;
  purchaseCount: bigint;
  purchasedCreditNanos: bigint;
  developerCreditNanos: bigint;
  reversedCreditNanos: bigint;
  runwayDays: bigint | undefined;
}

const EMPTY_LEDGER: LedgerDay = { playerTopUpNanos: 0n, developerTopUpNanos: 0n, usageNanos: 0n, reversalNanos: 0n };

/** 00:00 UTC of the day `time` falls on. */
export function startOfUtcDay(time: Date): Date {
  return new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);
}

export function dayKey(day: Date): string {
  return day.toISOString().slice(0, 10);
}

/** Where the ledger must be read from for `days` days ending on `today`'s: six more days, for the runway. */
export function historyReadStart(today: Date, days: number): Date {
  return new Date(startOfUtcDay(today).getTime() - (days - 1 + RUNWAY_DAYS - 1) * DAY_MS);
}

const net = (day: LedgerDay) => day.playerTopUpNanos + day.developerTopUpNanos + day.usageNanos + day.reversalNanos;

/**
 * The `days` days ending with today's, oldest first. Closing balances are walked back from the
 * balance now, undoing each later day's entries, so they hold even where the balance predates
 * the ledger (a project converted with credit on it). Runway: the closing balance at the rate of
 * the seven days ending that day (funding.ts's rule).
 */
export function buildFundingHistory(options: {
  now: Date;
  days: number;
  facts: FundingHistoryFacts;
}): FundingDayView[] {
  const { facts } = options;
  const today = startOfUtcDay(options.now).getTime();
  const first = today - (options.days - 1) * DAY_MS;
  const ledgerOf = (time: number) => facts.ledger.get(dayKey(new Date(time))) ?? EMPTY_LEDGER;

  // Entries dated after today (a clock ahead of ours) are undone first.
  let closing = facts.balanceNanos;
  for (const [key, day] of facts.ledger) if (key > dayKey(new Date(today))) closing -= net(day);

  const views: FundingDayView[] = [];
  for (let time = today; time >= first; time -= DAY_MS) {
    const ledger = ledgerOf(time);
    const purchases = facts.purchases.get(dayKey(new Date(time)));
    let weekSpend = 0n;
    for (let back = 0; back < RUNWAY_DAYS; back++) weekSpend -= ledgerOf(time - back * DAY_MS).usageNanos;
    views.push({
      start: new Date(time),
      closingBalanceNanos: closing,
      spendNanos: -ledger.usageNanos,
      purchaseCount: purchases?.count ?? 0n,
      purchasedCreditNanos: purchases?.creditNanos ?? 0n,
      developerCreditNanos: ledger.developerTopUpNanos,
      reversedCreditNanos: -ledger.reversalNanos,
      runwayDays: runwayDays(closing, weekSpend),
    });
    closing -= net(ledger);
  }
  return views.reverse();
}
