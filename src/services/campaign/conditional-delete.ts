import type { ServiceDeps } from "../../core/deps.js";
import type { Reason } from "../../errors/reasons.js";
import { deletionOutcome, expectedVersion } from "../etag-check.js";
import type { Authorized } from "../management-access.js";

export interface ConditionalDelete<T, Outcome extends string> {
  /** The request's etag: with one, the delete happens only at the version it names (AIP-154). */
  etag: string;
  remove(name: T, expectedVersion: number | undefined): Promise<Outcome>;
  /** The store's outcome that refuses the delete, with the refusal's reason and words. */
  refusal?: { when: Outcome; reason: Reason; message: string };
}

/** Deletes `target`: NOT_FOUND when it is gone, ABORTED for a stale etag, else as `refusals` say. */
export async function deleteConditionally<T, Outcome extends string>(
  deps: Pick<ServiceDeps, "refuse">,
  target: Authorized<T>,
  options: ConditionalDelete<T, Outcome>,
): Promise<Record<string, never>> {
  const outcome = deletionOutcome(deps, await options.remove(target.name, expectedVersion(options.etag)), target);
  const { refusal } = options;
  if (outcome === refusal?.when) throw deps.refuse(refusal.reason, { subject: target.text, message: refusal.message });
  return {};
}
