import type { Timestamp } from "@bufbuild/protobuf/wkt";

export function dateOf(time: Timestamp | undefined): Date | undefined {
  if (!time) return undefined;
  return new Date(Number(time.seconds) * 1000 + Math.floor(time.nanos / 1_000_000));
}

/** "2026-11-20 14:03 UTC": one clock for every studio, as the API's days are UTC. */
export function formatTime(time: Timestamp | undefined): string {
  const date = dateOf(time);
  if (!date) return "—";
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function formatDay(time: Timestamp | undefined): string {
  return dateOf(time)?.toISOString().slice(0, 10) ?? "—";
}

/** AIP-160 terms for whole UTC days: `from` included, `to` included (so before the next day). */
export function dayRangeTerms(from: string, to: string): string[] {
  const terms: string[] = [];
  if (from) terms.push(`create_time >= "${from}T00:00:00Z"`);
  if (to) {
    const next = new Date(`${to}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    terms.push(`create_time < "${next.toISOString().replace(".000Z", "Z")}"`);
  }
  return terms;
}
