// Money on the command line: decimal dollars ("12.50"), read and written as text and
// integers only, never through a float (spec 2.2).

export interface UsdAmount {
  currencyCode: "USD";
  units: bigint;
  nanos: number;
}

const DOLLARS = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,2}))?$/;
const NANOS_PER_CENT = 10_000_000;

/** "12.50" -> 12 units, 500000000 nanos. Whole cents at most; no sign, no exponent. */
export function parseDollars(text: string): UsdAmount {
  const match = DOLLARS.exec(text.trim());
  if (!match?.[1]) throw new Error(`"${text}" is not an amount of dollars like 12.50 (at most two decimals).`);
  const cents = (match[2] ?? "").padEnd(2, "0");
  return { currencyCode: "USD", units: BigInt(match[1]), nanos: Number(cents) * NANOS_PER_CENT };
}

/** google.type.Money as "12.50 USD", exact to the nano (trailing zeros past the cents dropped). */
export function formatMoney(money: { currencyCode: string; units: bigint; nanos: number } | undefined): string {
  if (!money) return "-";
  const negative = money.units < 0n || money.nanos < 0;
  const units = money.units < 0n ? -money.units : money.units;
  const fraction = String(Math.abs(money.nanos)).padStart(9, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${negative ? "-" : ""}${units}.${fraction} ${money.currencyCode}`;
}
