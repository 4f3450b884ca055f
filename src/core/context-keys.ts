import { createContextKey } from "@connectrpc/connect";
import type { Role } from "../domain/permissions.js";

// Every value a call carries in its context, set by the transport (src/server) and read by
// interceptors and services, which know no transport. One place, one naming style: `k` + what.

/** The request's id, also sent back as `x-request-id`. */
export const kRequestId = createContextKey<string>("", { description: "request id" });

/**
 * The address the caller's connection comes from. The request handler sets it from the socket,
 * never from a header; the player's address is passed on to the platform's InitTxn (reference
 * 3.5 `ipaddress`).
 */
export const kClientAddress = createContextKey<string>("", { description: "client address" });

/** Whether the call was already counted against its client address's rate limit. */
export const kAddressCounted = createContextKey(false, { description: "counted against its client address" });

/** Who is calling a management method, as resolved from `Authorization: Bearer <token>`. */
export type Principal =
  | { kind: "apiKey"; id: string; accountId: string; role: Role }
  | { kind: "session"; id: string; memberId: string; accountId: string; role: Role }
  | { kind: "operator" };

/** Set by the authentication interceptor; undefined when no valid credential came. */
export const kPrincipal = createContextKey<Principal | undefined>(undefined, { description: "principal" });

/**
 * What the platform said of a begin's player ticket (spec 5.1), for the rate limits (spec 8,
 * docs/abuse-limits.md): only a begin whose player the platform vouched for keeps its point of the campaign's
 * limit, and a refused ticket is charged to the failed-ticket limits of its address and its
 * campaign. "unchecked": the platform never judged the ticket (refused before, unreachable, or
 * the studio's key rejected).
 */
export type TicketVerdict = "unchecked" | "vouched" | "refused";

export const kTicketVerdict = createContextKey<TicketVerdict>("unchecked", { description: "player ticket verdict" });
