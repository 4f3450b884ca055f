import { readRfc3339 } from "../../../domain/rfc3339.js";
import { invalidArgument } from "../../../errors/status.js";
import type { PurchaseRow } from "../../../store/purchases-read.js";

// The filter of ListPurchases, as its proto documents it (AIP-160, a fixed subset):
// `reversed = true|false`, `state = "STATE_X"`, `channel = "CHANNEL_X"`, `create_time >= "<RFC 3339>"`,
// `create_time < "<RFC 3339>"` (the console's purchases table), each at most once,
// joined with AND. Anything else is INVALID_ARGUMENT rather than a guess.

export interface PurchaseFilter {
  reversed?: boolean;
  state?: PurchaseRow["state"];
  channel?: PurchaseRow["channel"];
  since?: Date;
  before?: Date;
}

const TERM = /^(reversed|state|channel|create_time)\s*(=|>=|<)\s*(true|false|"[^"]*")$/;
const STATES: Record<string, PurchaseRow["state"]> = {
  STATE_INITIATED: "INITIATED",
  STATE_AUTHORIZED: "AUTHORIZED",
  STATE_CREDITED: "CREDITED",
  STATE_CANCELLED: "CANCELLED",
  STATE_FAILED: "FAILED",
  STATE_ABANDONED: "ABANDONED",
};
const CHANNELS: Record<string, PurchaseRow["channel"]> = {
  CHANNEL_GAME: "GAME",
  CHANNEL_WEB: "WEB",
};

export function parsePurchaseFilter(filter: string): PurchaseFilter {
  const result: PurchaseFilter = {};
  if (filter.trim() === "") return result;
  for (const term of filter.trim().split(/\s+AND\s+/)) {
    const match = TERM.exec(term.trim());
    if (!match) throw bad(`"${term}" is not a term this filter accepts`);
    const [, field, operator, value] = match as unknown as [string, string, string, string];
    const quoted = value.startsWith('"') ? value.slice(1, -1) : undefined;
    if (field === "reversed" && operator === "=" && quoted === undefined) {
      if (result.reversed !== undefined) throw bad("reversed is given twice");
      result.reversed = value === "true";
    } else if (field === "state" && operator === "=" && quoted !== undefined) {
      if (result.state !== undefined) throw bad("state is given twice");
      result.state = entryOf(STATES, quoted) ?? throwBad(`"${quoted}" is not a purchase state`);
    } else if (field === "channel" && operator === "=" && quoted !== undefined) {
      if (result.channel !== undefined) throw bad("channel is given twice");
      result.channel = entryOf(CHANNELS, quoted) ?? throwBad(`"${quoted}" is not a purchase channel`);
    } else if (field === "create_time" && operator !== "=" && quoted !== undefined) {
      const key = operator === ">=" ? "since" : "before";
      if (result[key] !== undefined) throw bad(`create_time ${operator} is given twice`);
      result[key] = readRfc3339(quoted, bad);
    } else {
      throw bad(`"${term}" is not a term this filter accepts`);
    }
  }
  return result;
}

function bad(why: string) {
  return invalidArgument(
    `"filter" ${why}; accepted: reversed = true|false, state = "STATE_X", channel = "CHANNEL_X", create_time >= "<RFC 3339>", create_time < "<RFC 3339>", joined with AND.`,
  );
}

/** The table's own entry only ("constructor" is no state). */
function entryOf<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function throwBad(why: string): never {
  throw bad(why);
}
