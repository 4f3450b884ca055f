import { createContextKey } from "@connectrpc/connect";

/**
 * The address the caller's connection comes from, for services (which know no transport).
 * The request handler sets it from the socket, never from a header; the player's address is
 * passed on to the platform's InitTxn (reference 3.5 `ipaddress`).
 */
export const kClientAddress = createContextKey<string>("", { description: "client address" });
