import { invalidArgument } from "../../errors/status.js";

// Spec 8: a request id is at most 128 characters.
const MAX_REQUEST_ID = 128;

/** An optional request_id: undefined when empty, refused when too long. */
export function readRequestId(requestId: string): string | undefined {
  if (requestId.length > MAX_REQUEST_ID) {
    throw invalidArgument(`"requestId" must be at most ${MAX_REQUEST_ID} characters.`);
  }
  return requestId === "" ? undefined : requestId;
}
