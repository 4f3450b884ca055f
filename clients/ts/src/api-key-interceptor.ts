import type { Interceptor } from "@connectrpc/connect";

/**
 * Sends `Authorization: Bearer <apiKey>` on every call: management calls need it; the four
 * public calls a game makes ignore it.
 */
export function apiKeyInterceptor(apiKey: string): Interceptor {
  const authorization = `Bearer ${apiKey}`;
  return (next) => (request) => {
    request.header.set("authorization", authorization);
    return next(request);
  };
}
