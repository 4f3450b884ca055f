import type { LedgerType } from "../../../gen/prisma/enums.js";
import { invalidArgument } from "../../errors/status.js";
import { filterTerms, readTimeBound } from "../list-filter.js";

// The filter of ListLedgerEntries, as its proto documents it (AIP-160, a fixed subset):
// `type = "TYPE_X"`, `create_time >= "<RFC 3339>"`, `create_time < "<RFC 3339>"`, each at most
// once, joined with AND. Anything else is INVALID_ARGUMENT rather than a guess.

export interface LedgerFilter {
  type: LedgerType | undefined;
  since: Date | undefined;
  before: Date | undefined;
}

const TERM = /^(type|create_time)\s*(=|>=|<)\s*"([^"]*)"$/;
const TYPES: Record<string, LedgerType> = {
  TYPE_PLAYER_TOP_UP: "PLAYER_TOP_UP",
  TYPE_DEVELOPER_TOP_UP: "DEVELOPER_TOP_UP",
  TYPE_USAGE: "USAGE",
  TYPE_REVERSAL: "REVERSAL",
};

export function parseLedgerFilter(filter: string): LedgerFilter {
  const result: LedgerFilter = { type: undefined, since: undefined, before: undefined };
  for (const term of filterTerms(filter, TERM, bad)) {
    const { field, operator, value } = term;
    if (field === "type" && operator === "=") {
      if (result.type !== undefined) throw bad("type is given twice");
      result.type = TYPES[value] ?? throwBad(`"${value}" is not a ledger entry type`);
    } else if (field === "create_time" && operator !== "=") {
      readTimeBound(result, term, bad);
    } else {
      throw bad(`${field} does not take ${operator}`);
    }
  }
  return result;
}

function bad(why: string) {
  return invalidArgument(
    `"filter" ${why}; accepted: type = "TYPE_X", create_time >= "<RFC 3339>", create_time < "<RFC 3339>", joined with AND.`,
  );
}

function throwBad(why: string): never {
  throw bad(why);
}
