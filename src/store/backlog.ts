import type { DbClient } from "./db-client.js";
import { stateValue } from "./purchase-guards.js";

/** The background work still to do, as monitoring reads it (docs/deploy.md, alerts). */
export interface Backlog {
  /** Purchases begun and not yet final (spec 3.1), by state. */
  unsettled: { INITIATED: number; AUTHORIZED: number };
  /** Begin time of the oldest purchase the platform approved that is not settled yet. */
  oldestAuthorized: Date | null;
  /** Campaigns waiting for background verification (spec 3.2). */
  verifying: number;
  /** Since when the longest-waiting of them has been waiting. */
  oldestVerifying: Date | null;
}

type BacklogRow = Pick<Backlog, "oldestAuthorized" | "oldestVerifying"> &
  Record<"initiated" | "authorized" | "verifying", bigint>;

/**
 * One round trip on every scrape, so every part reads an index: purchases (state, create_time)
 * and campaigns (state). Only the non-final rows are visited, which settle within minutes.
 */
export async function readBacklog(db: DbClient): Promise<Backlog> {
  const [row] = await db.$queryRaw<BacklogRow[]>`
    SELECT (SELECT count(*) FROM purchases WHERE state = ${stateValue("INITIATED")}) AS initiated,
           (SELECT count(*) FROM purchases WHERE state = ${stateValue("AUTHORIZED")}) AS authorized,
           (SELECT min(create_time) FROM purchases WHERE state = ${stateValue("AUTHORIZED")}) AS "oldestAuthorized",
           (SELECT count(*) FROM campaigns WHERE state = 'VERIFYING') AS verifying,
           (SELECT min(update_time) FROM campaigns WHERE state = 'VERIFYING') AS "oldestVerifying"`;
  if (!row) throw new Error("the backlog query returned no row");
  const { initiated, authorized, verifying, ...oldest } = row;
  return {
    ...oldest,
    unsettled: { INITIATED: Number(initiated), AUTHORIZED: Number(authorized) },
    verifying: Number(verifying),
  };
}
