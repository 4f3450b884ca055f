import { invalidArgument } from "../errors/status.js";

/** Spec 8: a request id is at most 128 characters. */
export const MAX_REQUEST_ID_LENGTH = 128;

/**
 * An optional request id (AIP-155): undefined when empty, refused (400, code 3) when longer
 * than MAX_REQUEST_ID_LENGTH. Characters are Unicode code points (spec 8 counts characters),
 * so one emoji counts once however many UTF-16 units it takes.
 */
export function readRequestId(requestId: string): string | undefined {
  if (requestId === "") return undefined;
  if ([...requestId].length > MAX_REQUEST_ID_LENGTH) {
    throw invalidArgument(`"requestId" must be at most ${MAX_REQUEST_ID_LENGTH} characters.`);
  }
  return requestId;
}
