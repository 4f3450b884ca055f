import { ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";

export interface Refusal {
  code: number;
  message: string;
  /** The ErrorInfo reason, when the refusal carries one (spec 7). */
  reason?: string;
}

/**
 * The refusal an RPC ended with, over any protocol: code, message and ErrorInfo reason, to
 * compare refusals with each other (indistinguishability) or with the spec's table.
 */
export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    const connect = ConnectError.from(error);
    const reason = connect.findDetails(ErrorInfoSchema)[0]?.reason;
    return { code: connect.code, message: connect.rawMessage, ...(reason ? { reason } : {}) };
  }
  throw new Error("expected the call to be refused");
}
