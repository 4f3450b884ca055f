import { type DistributorLink, DistributorLinkSchema } from "../../../../gen/encore/campaign/v1/distributor_link_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { fingerprintSecret, sealSecret } from "../../../core/secret-box.js";
import { resources } from "../../../domain/resource-names.js";
import { invalidArgument } from "../../../errors/status.js";
import { appIdsOnLink, findLink, type LinkChanges, type LinkRow, updateLink } from "../../../store/links.js";
import { readDisplayName } from "../../display-name.js";
import { expectedVersion, writtenRow } from "../../etag-check.js";
import { authorizeName, loadAuthorized } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { appsOrRefusal, isPlausibleKey, ownsAGame } from "../platform-answers.js";
import { updatedFields } from "../update-fields.js";
import { toDistributorLink } from "./link-mapper.js";

/**
 * UpdateDistributorLink (spec 4.6): `display_name`, and key rotation. A new key is checked
 * with the platform and must still own every app a campaign on the link sells
 * (KEY_DOES_NOT_OWN_PRODUCT); rotating clears STATE_CREDENTIAL_INVALID (spec 3.3).
 * `steam.sandbox` is immutable.
 */
export function createUpdateDistributorLink(deps: ServiceDeps): CampaignImpl["updateDistributorLink"] {
  return async (request, ctx) => {
    const link = request.distributorLink;
    const target = authorizeName(ctx, "encore.links.update", resources.link, link?.name ?? "", {
      field: "distributorLink.name",
    });
    const fields = readFields(link, request.updateMask?.paths ?? []);
    const current = await loadAuthorized(target, (n) => findLink(deps.db, n.accountId, n.linkId));
    if (fields.has("steam.sandbox") && (link?.steam?.sandbox ?? false) !== current.sandbox) {
      throw invalidArgument('"distributorLink.steam.sandbox" is immutable.');
    }
    const changes: LinkChanges = {};
    if (fields.has("display_name")) {
      changes.displayName = readDisplayName(link?.displayName ?? "", "distributorLink.displayName", { max: 200 });
    }
    if (fields.has("steam.publisher_key")) {
      changes.key = await checkedRotation(deps, current, link?.steam?.publisherKey ?? "", target.text);
    }
    const version = expectedVersion(link?.etag ?? "");
    const written = await updateLink(deps.db, { ...target.name, expectedVersion: version, changes, now: deps.now() });
    return toDistributorLink(writtenRow(deps, written, target));
  };
}

function readFields(link: DistributorLink | undefined, paths: readonly string[]) {
  return updatedFields({
    resource: DistributorLinkSchema,
    // `steam` as a whole names both of its fields.
    paths: paths.flatMap((path) => (path === "steam" ? ["steam.publisher_key", "steam.sandbox"] : [path])),
    given: {
      display_name: link?.displayName,
      "steam.publisher_key": link?.steam?.publisherKey,
      "steam.sandbox": link?.steam?.sandbox,
    },
  });
}

/** The new key, sealed, once the platform vouched for it and it owns every app sold through the link. */
async function checkedRotation(deps: ServiceDeps, link: LinkRow, publisherKey: string, subject: string) {
  if (!isPlausibleKey(publisherKey)) {
    throw invalidArgument('"distributorLink.steam.publisherKey" must be a publisher key, without spaces.');
  }
  const apps = appsOrRefusal(await deps.steam.listPartnerApps({ publisherKey }));
  const owned = new Set(apps.map((app) => BigInt(app.appid)));
  const missing = (await appIdsOnLink(deps.db, link.id)).filter((appId) => !owned.has(appId));
  if (missing.length > 0) {
    throw deps.refuse("KEY_DOES_NOT_OWN_PRODUCT", {
      subject,
      message: `The new publisher key does not own app ${missing.join(", ")}, which a campaign on this link sells.`,
      metadata: { appIds: missing.join(",") },
    });
  }
  if (!ownsAGame(apps)) throw invalidArgument("The publisher key owns no game on the platform.");
  return {
    publisherKeyEncrypted: sealSecret(deps.masterKeys, publisherKey),
    fingerprint: fingerprintSecret(publisherKey),
  };
}
