import type { ServiceDeps } from "../core/deps.js";
import { fingerprintSecret } from "../core/secret-box.js";
import { markCredentialInvalid } from "../store/links.js";

/**
 * The platform rejected `publisherKey` (reference 1.6): the link becomes
 * STATE_CREDENTIAL_INVALID (spec 3.3), but only while it still holds that very key, so a key
 * rotated while the call was in flight stays ACTIVE.
 */
export function markKeyRejected(
  deps: Pick<ServiceDeps, "db" | "now" | "webhookEvents">,
  linkId: string,
  publisherKey: string,
): Promise<boolean> {
  const now = deps.now();
  // Distributor_link.credential_invalid commits with the mark, once per mark.
  return deps.db.$transaction(async (tx) => {
    const marked = await markCredentialInvalid(tx, { linkId, fingerprint: fingerprintSecret(publisherKey), now });
    if (marked) await deps.webhookEvents?.linkCredentialInvalid(tx, linkId, now);
    return marked;
  });
}
