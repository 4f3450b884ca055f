// The checks every app-scoped partner call makes before its own logic, in Steam's order as far as
// the reference tells it: key known (403), required parameters present (400, the first missing one
// in the method's documented order, which `required` must follow and which must include "appid"),
// appid in the key's publisher group (403, reference 1.2).

import { forbidden, parseUint32, requireParams, type SimAnswer, type SimRequest, txnFailure } from "./sim-answer.js";
import { keyOwnsApp, type SimState } from "./sim-state.js";

export function checkAppScope(
  state: SimState,
  req: SimRequest,
  required: readonly string[],
): { readonly appid: number } | { readonly answer: SimAnswer } {
  if (req.key === undefined || !state.keys.has(req.key)) return { answer: forbidden() };
  const missing = requireParams(req.params, required);
  if (missing !== undefined) return { answer: missing };
  const appid = parseUint32(req.params.get("appid"));
  if (appid === undefined) return { answer: txnFailure(3) };
  if (!keyOwnsApp(state, req.key, appid)) return { answer: forbidden() };
  return { appid };
}
