import { ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema, PreconditionFailureSchema } from "../../gen/google/rpc/error_details_pb.js";
import { type Reason, reasons } from "./reasons.js";

export interface RefusalOptions {
  /** What the refusal is about: the campaign key on public calls (spec 7 item 1). */
  subject: string;
  /** For logs and developers, never for players. */
  message: string;
  /** Extra ErrorInfo metadata (lowerCamelCase keys, string values). */
  metadata?: Record<string, string>;
}

export type Refuse = (reason: Reason, options: RefusalOptions) => ConnectError;

/**
 * Builds named refusals for one error domain (`ERROR_DOMAIN`): an ErrorInfo on every one,
 * and a PreconditionFailure on those the reason table marks.
 */
export function createRefuse(domain: string): Refuse {
  return (reason, { subject, message, metadata = {} }) => {
    const { code, precondition } = reasons[reason];
    const details: ConstructorParameters<typeof ConnectError>[3] = [
      { desc: ErrorInfoSchema, value: { reason, domain, metadata } },
    ];
    if (precondition) {
      details.push({
        desc: PreconditionFailureSchema,
        value: { violations: [{ type: reason, subject, description: message }] },
      });
    }
    return new ConnectError(message, code, undefined, details);
  };
}
