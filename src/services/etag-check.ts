import type { ConnectError } from "@connectrpc/connect";
import type { ServiceDeps } from "../core/deps.js";
import { versionOfEtag } from "../domain/etag.js";

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
export function staleEtag(deps: ServiceDeps, subject: string): ConnectError {
  return deps.refuse("ETAG_MISMATCH", {
    subject,
    message: "The etag does not match the current version; read the resource again and retry.",
  });
}
