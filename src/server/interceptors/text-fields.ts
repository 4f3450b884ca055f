import type { DescMessage, Message } from "@bufbuild/protobuf";
import {
  isReflectList,
  isReflectMap,
  isReflectMessage,
  type ReflectMessage,
  reflect,
} from "@bufbuild/protobuf/reflect";
import type { Interceptor } from "@connectrpc/connect";
import { invalidArgument } from "../../errors/status.js";

/**
 * Refuses a request carrying U+0000 in any string, before any handler runs: PostgreSQL text
 * cannot hold it, so it could only ever fail deep in the store, and a key or handle with it
 * names nothing. A bad input is a 400 code 3, never a 5xx a game would retry (spec 4.5, 7).
 */
export const textFieldsInterceptor: Interceptor = (next) => async (req) => {
  if (!req.stream) {
    const path = firstNul(reflect(req.method.input as DescMessage, req.message as Message));
    if (path !== undefined) throw invalidArgument(`"${path}" contains a NUL character.`);
  }
  return next(req);
};

// The JSON path of the first string holding U+0000, or undefined.
function firstNul(message: ReflectMessage, prefix = ""): string | undefined {
  for (const field of message.fields) {
    if (!message.isSet(field)) continue;
    const value: unknown = message.get(field);
    const path = `${prefix}${field.jsonName}`;
    const found = isReflectList(value)
      ? firstIn([...value], path)
      : isReflectMap(value)
        ? firstIn(
            [...value].flatMap(([key, item]) => [key, item]),
            path,
          )
        : check(value, path);
    if (found !== undefined) return found;
  }
  return undefined;
}

function firstIn(values: unknown[], path: string): string | undefined {
  for (const value of values) {
    const found = check(value, path);
    if (found !== undefined) return found;
  }
  return undefined;
}

function check(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (isReflectMessage(value)) return firstNul(value, `${path}.`);
  return undefined;
}
