import type { UnavailableReason } from "../domain/availability.js";
import type { PublicFundingView } from "../domain/funding.js";
import { NANOS_PER_CENT } from "../domain/money.js";

// What the funding page says, in a player's words: the same facts and reasons the game gets
// (spec 2.3, 7), never a code.

/** Why a player cannot buy now (spec 2.3 `unavailableReason`, and begin's refusals, spec 7). */
export const REASON_WORDS: Record<UnavailableReason | "OFFER_INACTIVE" | "ORDER_REFUSED", string> = {
  CAMPAIGN_NOT_VERIFIED: "This campaign is not open for funding: the studio's campaign has not been verified.",
  CAMPAIGN_NOT_READY: "This campaign is not open for funding yet: the game's servers have not moved into it.",
  PUBLISHER_UNAVAILABLE: "Funding is paused: the studio's Steam connection is not working right now.",
  PUBLISHER_LIMIT_REACHED: "Funding is paused: the campaign has taken as much as it can until the studio settles up.",
  OFFER_INACTIVE: "That offer is no longer on sale.",
  ORDER_REFUSED: "Steam would not open the order.",
};

/** US dollars from nanos, by whole cents (prices are whole cents, spec 8), never through a float. */
export function dollars(nanos: bigint): string {
  const negative = nanos < 0n;
  const cents = (negative ? -nanos : nanos) / NANOS_PER_CENT;
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}$${whole}.${(cents % 100n).toString().padStart(2, "0")}`;
}

/** The funding lines a campaign's visibility allows (spec 2.3): nothing it hides is said. */
export function fundingWords(view: PublicFundingView): string[] {
  const lines: string[] = [];
  if (view.balanceNanos !== undefined) lines.push(`Balance: ${dollars(view.balanceNanos)}`);
  else lines.push(view.funded ? "The servers are funded." : "The servers are not funded yet.");
  const days = view.runwayDays;
  if (days === 0n) lines.push("Less than a day of funding left at last week's rate.");
  else if (days !== undefined)
    lines.push(`About ${days} ${days === 1n ? "day" : "days"} of funding left at last week's rate.`);
  return lines;
}
