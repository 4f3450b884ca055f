import { type DescMethod, getOption, hasOption } from "@bufbuild/protobuf";
import { http } from "../../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../gen/google/api/http_pb.js";

/** A yes or no about a method, read from its `google.api.http` pattern once and kept. */
export function decidedPerMethod(
  decide: (pattern: HttpRule["pattern"] | undefined, method: DescMethod) => boolean,
): (method: DescMethod) => boolean {
  const known = new WeakMap<DescMethod, boolean>();
  return (method) => {
    let answer = known.get(method);
    if (answer === undefined) {
      answer = decide(hasOption(method, http) ? getOption(method, http).pattern : undefined, method);
      known.set(method, answer);
    }
    return answer;
  };
}

/**
 * Public calls are those bound under `/v1/public/` (spec 9.1): no credential is read, and they
 * are rate limited. Decided once per method; the answer is asked on every call.
 */
export const isPublicMethod = decidedPerMethod(
  (pattern) => pattern?.case === "post" && pattern.value.startsWith("/v1/public/"),
);

/**
 * The public calls that still answer 401: those carrying a player's ticket (`auth_ticket`),
 * which the service checks with the platform, answering PLAYER_NOT_AUTHENTICATED when it does
 * not vouch for the player (spec 4.3, 5.1). Read from the request's descriptor, so the OpenAPI
 * document declares 401 on exactly these.
 */
export function checksPlayerTicket(method: DescMethod): boolean {
  return isPublicMethod(method) && method.input.fields.some((field) => field.name === PLAYER_TICKET);
}

const PLAYER_TICKET = "auth_ticket";
