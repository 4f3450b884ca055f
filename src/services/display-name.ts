import { invalidArgument } from "../errors/status.js";

// Display names are for people: any text, counted in characters (code points, as the overlay and
// the console show them), refused INVALID_ARGUMENT naming the field when too long or, where the
// resource needs one, empty.

export interface DisplayNameRule {
  /** At most this many characters; no limit of our own when absent. */
  max?: number;
  /** Refuse an empty (or blank) name. */
  required?: boolean;
}

export function readDisplayName(value: string, field: string, rule: DisplayNameRule): string {
  if (rule.required && value.trim() === "") throw invalidArgument(`"${field}" is required.`);
  if (rule.max !== undefined && [...value].length > rule.max)
    throw invalidArgument(`"${field}" must be at most ${rule.max} characters.`);
  return value;
}
