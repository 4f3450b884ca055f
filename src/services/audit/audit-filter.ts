import { invalidArgument } from "../../errors/status.js";
import { filterTerms, readTimeBound } from "../list-filter.js";

// The filter of ListAuditEvents, as its proto documents it (AIP-160, a fixed subset):
// `resource = "<name>"`, `actor = "<name>"`, `method = "<package.Service/Method>"`,
// `create_time >= "<RFC 3339>"`, `create_time < "<RFC 3339>"`, and for the operator
// `account = "accounts/{a}"` (or `""`: events of no account); each at most once, joined with
// AND. Anything else is INVALID_ARGUMENT rather than a guess.

export interface AuditFilter {
  resource: string | undefined;
  actor: string | undefined;
  method: string | undefined;
  since: Date | undefined;
  before: Date | undefined;
  /** Operator only: an account id; null for events of no account. */
  accountId: string | null | undefined;
}

const TERM = /^(resource|actor|method|account|create_time)\s*(=|>=|<)\s*"([^"\\]*)"$/;
const ACCOUNT = /^accounts\/([^/]+)$/;

export function parseAuditFilter(filter: string, options: { operator: boolean }): AuditFilter {
  const accepted = `resource = "<name>", actor = "<name>", method = "<package.Service/Method>", ${options.operator ? 'account = "accounts/{account}", ' : ""}create_time >= "<RFC 3339>", create_time < "<RFC 3339>", joined with AND`;
  const bad = (why: string) => invalidArgument(`"filter" ${why}; accepted: ${accepted}.`);
  const result: AuditFilter = {
    resource: undefined,
    actor: undefined,
    method: undefined,
    since: undefined,
    before: undefined,
    accountId: undefined,
  };
  for (const term of filterTerms(filter, TERM, bad)) {
    const { field, operator, value } = term;
    if (field === "create_time" && operator !== "=") {
      readTimeBound(result, term, bad);
    } else if (operator !== "=" || field === "create_time") {
      throw bad(`${field} does not take ${operator}`);
    } else if (field === "account") {
      if (!options.operator) throw bad("account is the operator's term");
      if (result.accountId !== undefined) throw bad("account is given twice");
      result.accountId =
        value === "" ? null : (ACCOUNT.exec(value)?.[1] ?? throwIt(bad(`"${value}" is not accounts/{account}`)));
    } else {
      const key = field as "resource" | "actor" | "method";
      if (result[key] !== undefined) throw bad(`${field} is given twice`);
      result[key] = value;
    }
  }
  return result;
}

function throwIt(error: Error): never {
  throw error;
}
