import { readRfc3339 } from "../domain/rfc3339.js";

// A List method's filter (AIP-160) in the fixed subset its proto documents: terms joined with
// AND, each a field, an operator and a value, each at most once. Anything else is
// INVALID_ARGUMENT rather than a guess, in the words of the method's `bad`.

export interface FilterTerm {
  field: string;
  operator: string;
  value: string;
}

/**
 * The terms of `filter` (none when it is blank), each matched by `term` (groups: field,
 * operator, value), read one at a time so that a refusal names the first wrong term.
 */
export function* filterTerms(filter: string, term: RegExp, bad: (why: string) => Error): Generator<FilterTerm> {
  if (filter.trim() === "") return;
  for (const text of filter.trim().split(/\s+AND\s+/)) {
    const match = term.exec(text.trim());
    if (!match) throw bad(`"${text}" is not a term this filter accepts`);
    const [, field, operator, value] = match as unknown as [string, string, string, string];
    yield { field, operator, value };
  }
}

/** `create_time >= "<RFC 3339>"` (since) or `create_time < "<RFC 3339>"` (before), each at most once. */
export function readTimeBound(
  bounds: { since?: Date | undefined; before?: Date | undefined },
  term: FilterTerm,
  bad: (why: string) => Error,
): void {
  const key = term.operator === ">=" ? "since" : "before";
  if (bounds[key] !== undefined) throw bad(`create_time ${term.operator} is given twice`);
  bounds[key] = readRfc3339(term.value, bad);
}
