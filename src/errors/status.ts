import { Code, ConnectError } from "@connectrpc/connect";

/** What caused a refusal, for the log (request-log.ts); never sent to the caller. */
type RefusalOptions = { cause?: unknown };

const refusal = (message: string, code: Code, options?: RefusalOptions) =>
  new ConnectError(message, code, undefined, undefined, options?.cause);

// The refusals that carry no reason (spec 7: "none" in the Reason column). Every protocol
// renders them the same way: Connect and gRPC natively, REST as a bare google.rpc.Status.

/** 400, code 3: a required field missing, a body that is not JSON, a request id too long. */
export const invalidArgument = (message: string, options?: RefusalOptions) =>
  refusal(message, Code.InvalidArgument, options);

/** 404, code 5: no such campaign, purchase or resource, or one the caller may not see (spec 5.3). */
export const notFound = (message: string, options?: RefusalOptions) => refusal(message, Code.NotFound, options);

/** 409, code 6: e.g. a request id already used by a different player (spec 4.3 rule 3). */
export const alreadyExists = (message: string, options?: RefusalOptions) =>
  refusal(message, Code.AlreadyExists, options);

/** 429, code 8: rate limited; nothing was done. */
export const rateLimited = (message = "Too many requests; retry later.", options?: RefusalOptions) =>
  refusal(message, Code.ResourceExhausted, options);

/** 503, code 14: the platform (or the database) is not answering; safe to retry. */
export const unavailable = (message: string, options?: RefusalOptions) => refusal(message, Code.Unavailable, options);

/** 401, code 16: no credential, or one nobody issued. */
export const unauthenticated = (message = "A valid credential is required.", options?: RefusalOptions) =>
  refusal(message, Code.Unauthenticated, options);

/** 501, code 12: the route exists for another HTTP method, or the method is not served. */
export const unimplemented = (message: string, options?: RefusalOptions) =>
  refusal(message, Code.Unimplemented, options);

/** 500, code 13: a fault of ours; the cause is logged, never echoed. */
export const internal = (message = "Internal error.", options?: RefusalOptions) =>
  refusal(message, Code.Internal, options);
