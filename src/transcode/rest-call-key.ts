import { createContextKey } from "@connectrpc/connect";

/** What a REST request looked like before it was transcoded into an RPC. */
export interface RestCall {
  /** The HTTP method the client used (the RPC itself always arrives as a Connect POST). */
  readonly httpMethod: string;
  /** The matched path template, e.g. `/v1/{name=accounts/*}` (low-cardinality, for logs). */
  readonly pathTemplate: string;
}

/**
 * Set in the context values of every transcoded call, so interceptors can tell REST traffic
 * (protocolName "connect" on the synthesized hop) from native Connect calls.
 */
export const kRestCall = createContextKey<RestCall | undefined>(undefined, { description: "transcoded REST call" });
