import type { ConnectError } from "@connectrpc/connect";
import type { ServiceDeps } from "../core/deps.js";
import { versionOfEtag } from "../domain/etag.js";
import { notFound } from "../errors/status.js";
import type { ConditionalWrite } from "../store/links.js";
import { type Authorized, writtenOutcome } from "./management-access.js";

/**
 * The version a request's etag requires: undefined when the caller sent none (AIP-154: the
 * write proceeds); 0, which no row ever has, for an etag this service never issued, so the
 * conditional write reports it stale.
 */
export function expectedVersion(etag: string): number | undefined {
  if (etag === "") return undefined;
  return versionOfEtag(etag) ?? 0;
}

/** AIP-154: a stale etag is ABORTED, with reason ETAG_MISMATCH. */
export function staleEtag(deps: Pick<ServiceDeps, "refuse">, subject: string): ConnectError {
  return deps.refuse("ETAG_MISMATCH", {
    subject,
    message: "The etag does not match the current version; read the resource again and retry.",
  });
}

/** The row a conditional update wrote; NOT_FOUND when the resource is gone, ABORTED when the etag is stale. */
export function writtenRow<T>(
  deps: Pick<ServiceDeps, "refuse">,
  written: ConditionalWrite<T>,
  target: Authorized<unknown>,
): T {
  return writtenOutcome(written, target, () => staleEtag(deps, target.text)).row;
}

/** A conditional delete's outcome, once NOT_FOUND (absent) and ABORTED (stale etag) are answered. */
export function deletionOutcome<Outcome extends string>(
  deps: Pick<ServiceDeps, "refuse">,
  outcome: Outcome,
  target: Authorized<unknown>,
): Exclude<Outcome, "absent" | "stale"> {
  if (outcome === "absent") throw notFound(target.message);
  if (outcome === "stale") throw staleEtag(deps, target.text);
  return outcome as Exclude<Outcome, "absent" | "stale">;
}
