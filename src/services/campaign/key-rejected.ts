import { markCredentialInvalid } from "../../store/links.js";
import type { ServiceDeps } from "../deps.js";
import { fingerprintSecret } from "../secret-box.js";

/**
 * The platform rejected `publisherKey` (reference 1.6): the link becomes
 * STATE_CREDENTIAL_INVALID (spec 3.3), but only while it still holds that very key, so a key
 * rotated while the call was in flight stays ACTIVE.
 */
export function markKeyRejected(
  deps: Pick<ServiceDeps, "db" | "now">,
  linkId: string,
  publisherKey: string,
): Promise<boolean> {
  return markCredentialInvalid(deps.db, { linkId, fingerprint: fingerprintSecret(publisherKey), now: deps.now() });
}
