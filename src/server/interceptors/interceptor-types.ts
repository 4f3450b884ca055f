import type { Interceptor } from "@connectrpc/connect";

/** The rest of the chain an interceptor wraps, and the request it is given. */
export type Next = Parameters<Interceptor>[0];
export type Call = Parameters<Next>[0];
