import type { DescField, DescMessage } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { MoneySchema } from "../../../gen/google/type/money_pb.js";
import { amountNanos, isWithinAmountBound, LARGEST_AMOUNT } from "../../domain/money.js";
import { amountOutOfRange } from "../../errors/messages.js";
import { invalidArgument } from "../../errors/status.js";
import { isOutputOnly } from "../audit/secret-fields.js";
import { type Check, type CheckOf, createMessageWalk, each, entries } from "./message-walk.js";

/**
 * Refuses a request carrying an amount past the largest accepted (domain/money.ts) in any
 * google.type.Money field it reads, at any depth, before any handler runs: stored as int64
 * nano-USD, such an amount could only fail in the store, as a 500 (spec 2.2, 7). Every money
 * field of every request is found from the descriptors, so a new one cannot be left out.
 * Output-only fields are skipped: the service ignores what a caller sends there (AIP-203),
 * and a read-modify-write client sends back totals (a balance) that may pass the bound.
 */
export const moneyFieldsInterceptor: Interceptor = (next) => (req) => {
  if (!req.stream) {
    const path = firstAmountOutOfRange(req.method.input, req.message);
    if (path !== undefined) return Promise.reject(invalidArgument(amountOutOfRange(path, LARGEST_AMOUNT)));
  }
  return next(req);
};

const amount: Check = (value, prefix, name) => {
  const money = value as { units: bigint; nanos: number };
  return isWithinAmountBound(amountNanos(money)) ? undefined : `${prefix}${name}`;
};

const isMoney = (desc: DescMessage) => desc.typeName === MoneySchema.typeName;

/** The message type a field's values are (singular, list items, map values), if any. */
function messageOf(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message") return field.message;
  if (field.fieldKind === "list" && field.listKind === "message") return field.message;
  if (field.fieldKind === "map" && field.mapKind === "message") return field.message;
  return undefined;
}

// Most requests hold no money at all: only the fields that can lead to some are walked.
const reaching = new WeakMap<DescMessage, boolean>();

function reachesMoney(desc: DescMessage): boolean {
  let known = reaching.get(desc);
  if (known === undefined) {
    known = search(desc, new Set());
    reaching.set(desc, known);
  }
  return known;
}

function search(desc: DescMessage, seen: Set<DescMessage>): boolean {
  if (isMoney(desc)) return true;
  seen.add(desc);
  return desc.fields.some((field) => {
    const message = isOutputOnly(field) ? undefined : messageOf(field);
    return message !== undefined && !seen.has(message) && search(message, seen);
  });
}

const amountOf: CheckOf = (field, nested) => {
  const message = isOutputOnly(field) ? undefined : messageOf(field);
  if (message === undefined || !reachesMoney(message)) return undefined;
  const check = isMoney(message) ? amount : nested(message);
  if (field.fieldKind === "list") return each(check);
  if (field.fieldKind === "map") return entries(undefined, check);
  return check;
};

/** The JSON path of the first amount in `message` past the largest accepted (lists and maps by their field's path), or undefined. */
export const firstAmountOutOfRange = createMessageWalk(amountOf);
