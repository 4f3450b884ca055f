import type { Money } from "../../../gen/google/type/money_pb.js";
import { LARGEST_AMOUNT, NANOS_PER_CENT, parseUsd } from "../../domain/money.js";
import { amountOutOfRange } from "../../errors/messages.js";
import { invalidArgument } from "../../errors/status.js";

/** A required USD amount as nano-USD, refused INVALID_ARGUMENT unless it is valid Money. */
export function readUsd(money: Money | undefined, field: string): bigint {
  if (!money) throw invalidArgument(`Missing required field "${field}".`);
  const parsed = parseUsd(money);
  if (!parsed.ok && parsed.problem === "AMOUNT_OUT_OF_RANGE")
    throw invalidArgument(amountOutOfRange(field, LARGEST_AMOUNT));
  if (!parsed.ok) throw invalidArgument(`"${field}" must be a valid USD amount (${parsed.problem}).`);
  return parsed.nanos;
}

/** An outstanding limit: USD in whole cents, zero or more (zero stops every non-sandbox sale). */
export function readLimit(money: Money | undefined, field: string): bigint {
  const nanos = readUsd(money, field);
  if (nanos < 0n || nanos % NANOS_PER_CENT !== 0n) {
    throw invalidArgument(`"${field}" must be zero or more USD in whole cents.`);
  }
  return nanos;
}
