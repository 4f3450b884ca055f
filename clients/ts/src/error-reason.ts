import { ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";

/**
 * The ErrorInfo `reason` of a refusal, e.g. "ETAG_MISMATCH" or "CAMPAIGN_NOT_READY"; undefined
 * when `error` is no ConnectError or carries no ErrorInfo (an unknown campaign key is a bare
 * NOT_FOUND, for one).
 */
export function errorReason(error: unknown): string | undefined {
  if (!(error instanceof ConnectError)) return undefined;
  return error.findDetails(ErrorInfoSchema)[0]?.reason;
}
