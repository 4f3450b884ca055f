// Steam's three response envelopes (reference 1.5), decoded into PlatformResult. They are kept
// apart on purpose: ISteamMicroTxn* puts `result` beside `params`, AuthenticateUserTicket puts it
// inside `params`, and the catalog calls have no wrapper at all.

import { z } from "zod";
import type { PlatformResult } from "./steam-platform.js";

const steamError = z.object({ errorcode: z.number(), errordesc: z.string() });

const microTxnEnvelope = z.object({
  response: z.object({ result: z.string(), params: z.unknown().optional(), error: steamError.optional() }),
});

const authEnvelope = z.object({
  response: z.object({
    params: z.object({ result: z.string() }).loose().optional(),
    error: steamError.optional(),
  }),
});

/** Reads `{response:{result,params,error}}` and then `params` with the given schema. */
export function decodeMicroTxn<T>(body: unknown, params: z.ZodType<T>): PlatformResult<T> {
  const envelope = microTxnEnvelope.safeParse(body);
  if (!envelope.success) return unexpectedShape(envelope.error);
  const { result, error } = envelope.data.response;
  if (result !== "OK") return refusedBy(error, result);
  return decodePayload(envelope.data.response.params, params);
}

/** Reads `{response:{params:{result:"OK",...}}}` or `{response:{error}}`. */
export function decodeAuth<T>(body: unknown, params: z.ZodType<T>): PlatformResult<T> {
  const envelope = authEnvelope.safeParse(body);
  if (!envelope.success) return unexpectedShape(envelope.error);
  const { params: found, error } = envelope.data.response;
  if (found === undefined || found.result !== "OK") return refusedBy(error, found?.result ?? "no params");
  return decodePayload(found, params);
}

/** Reads an unwrapped payload (applist, appnews, appdetails). */
export function decodePayload<T>(body: unknown, schema: z.ZodType<T>): PlatformResult<T> {
  const parsed = schema.safeParse(body);
  return parsed.success ? { kind: "ok", value: parsed.data } : unexpectedShape(parsed.error);
}

function refusedBy(error: z.infer<typeof steamError> | undefined, result: string): PlatformResult<never> {
  // A failure without an `error` object is still a refusal; "2" is Steam's "Operation failed".
  return {
    kind: "refused",
    code: error === undefined ? "2" : String(error.errorcode),
    description: error?.errordesc ?? `result ${result}`,
    keyRejected: false,
  };
}

// A body we cannot read is treated like no answer: the caller answers UNAVAILABLE.
function unexpectedShape(error: z.ZodError): PlatformResult<never> {
  const first = error.issues[0];
  const where = first === undefined ? "" : ` at ${first.path.join(".") || "(root)"}`;
  return { kind: "unavailable", cause: `unexpected response shape${where}` };
}
