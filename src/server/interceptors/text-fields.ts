import { ScalarType } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import type { Interceptor } from "@connectrpc/connect";
import { invalidArgument } from "../../errors/status.js";
import { type Check, type CheckOf, createMessageWalk, each, entries } from "./message-walk.js";

/**
 * Refuses a request carrying U+0000 in any string, before any handler runs: PostgreSQL text
 * cannot hold it, so it could only ever fail deep in the store, and a key or handle with it
 * names nothing. A bad input is a 400 code 3, never a 5xx a game would retry (spec 4.5, 7).
 */
export const textFieldsInterceptor: Interceptor = (next) => (req) => {
  if (!req.stream) {
    const path = firstNul(req.method.input, req.message);
    if (path !== undefined) return Promise.reject(invalidArgument(`"${path}" contains a NUL character.`));
  }
  return next(req);
};

const text: Check = (value, prefix, name) =>
  typeof value === "string" && value.includes("\u0000") ? `${prefix}${name}` : undefined;

// What can hold text in a field's value, or undefined when nothing can (numbers, bytes, enums).
const textOf: CheckOf = (field, nested) => {
  switch (field.fieldKind) {
    case "scalar":
      return field.scalar === ScalarType.STRING ? text : undefined;
    case "enum":
      return undefined;
    // A singular wrapper (google.protobuf.StringValue...) is held unwrapped, as its value.
    case "message":
      return isWrapperDesc(field.message) ? text : nested(field.message);
    case "list":
      if (field.listKind === "message") return each(nested(field.message));
      return field.listKind === "scalar" && field.scalar === ScalarType.STRING ? each(text) : undefined;
    case "map":
      return entries(
        field.mapKey === ScalarType.STRING ? text : undefined,
        field.mapKind === "message"
          ? nested(field.message)
          : field.mapKind === "scalar" && field.scalar === ScalarType.STRING
            ? text
            : undefined,
      );
  }
};

/** The JSON path of the first string in `message` holding U+0000 (lists and maps by their field's path), or undefined. */
export const firstNul = createMessageWalk(textOf);
