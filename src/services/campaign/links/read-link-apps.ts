import type { ServiceDeps } from "../../../core/deps.js";
import { openSecret } from "../../../core/secret-box.js";
import { PLATFORM_UNAVAILABLE } from "../../../errors/messages.js";
import { unavailable } from "../../../errors/status.js";
import type { PartnerApp } from "../../../platform/steam/steam-platform.js";
import type { LinkRow } from "../../../store/links.js";
import { markKeyRejected } from "../../../usecases/key-rejected.js";

/**
 * The apps a stored link's key owns, asked of the platform now. A key the platform rejects
 * marks the link STATE_CREDENTIAL_INVALID (spec 3.3) and is refused PUBLISHER_UNAVAILABLE
 * ("the studio's platform key is not working", spec 7) until the studio rotates it.
 */
export async function readLinkApps(deps: ServiceDeps, link: LinkRow, subject: string): Promise<readonly PartnerApp[]> {
  const publisherKey = openSecret(deps.masterKeys, link.publisherKeyEncrypted);
  const result = await deps.steam.listPartnerApps({ publisherKey });
  if (result.kind === "ok") return result.value;
  if (result.kind === "unavailable") throw unavailable(PLATFORM_UNAVAILABLE);
  if (result.keyRejected) await markKeyRejected(deps, link.id, publisherKey);
  throw deps.refuse("PUBLISHER_UNAVAILABLE", {
    subject,
    message: "The platform rejected the link's publisher key; rotate it with UpdateDistributorLink.",
  });
}
