import type { HandlerContext } from "@connectrpc/connect";
import type { UpdateDistributorLinkRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { DistributorLink } from "../../../../gen/encore/campaign/v1/distributor_link_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { fingerprintSecret, sealSecret } from "../../../core/secret-box.js";
import { resources } from "../../../domain/resource-names.js";
import { resolveUpdateMask } from "../../../domain/update-mask.js";
import { invalidArgument, notFound } from "../../../errors/status.js";
import { appIdsOnLink, findLink, type LinkChanges, type LinkRow, updateLink } from "../../../store/links.js";
import { readDisplayName } from "../../display-name.js";
import { expectedVersion, staleEtag } from "../../etag-check.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";
import { appsOrRefusal, isPlausibleKey, ownsAGame } from "../platform-answers.js";
import { toDistributorLink } from "./link-mapper.js";

type LinkField = "display_name" | "steam.publisher_key" | "steam.sandbox";

const OUTPUT_ONLY = [
  "name",
  "fingerprint",
  "outstanding",
  "reserved",
  "outstanding_limit",
  "state",
  "etag",
  "create_time",
  "update_time",
];

/**
 * UpdateDistributorLink (spec 4.6): `display_name`, and key rotation. A new key is checked
 * with the platform and must still own every app a campaign on the link sells
 * (KEY_DOES_NOT_OWN_PRODUCT); rotating clears STATE_CREDENTIAL_INVALID (spec 3.3).
 * `steam.sandbox` is immutable.
 */
export function createUpdateDistributorLink(deps: ServiceDeps) {
  return async (request: UpdateDistributorLinkRequest, ctx: HandlerContext): Promise<DistributorLink> => {
    const link = request.distributorLink;
    const text = link?.name ?? "";
    const name = readName(resources.link, text, "distributorLink.name");
    const message = notFoundMessage(text);
    authorize(ctx, "encore.links.update", name.accountId, message);
    const fields = readFields(request);
    const current = await findLink(deps.db, name.accountId, name.linkId);
    if (!current) throw notFound(message);
    if (fields.has("steam.sandbox") && (link?.steam?.sandbox ?? false) !== current.sandbox) {
      throw invalidArgument('"distributorLink.steam.sandbox" is immutable.');
    }
    const changes: LinkChanges = {};
    if (fields.has("display_name")) {
      changes.displayName = readDisplayName(link?.displayName ?? "", "distributorLink.displayName", { max: 200 });
    }
    if (fields.has("steam.publisher_key")) {
      changes.key = await checkedRotation(deps, current, link?.steam?.publisherKey ?? "", text);
    }
    const written = await updateLink(deps.db, {
      ...name,
      expectedVersion: expectedVersion(link?.etag ?? ""),
      changes,
      now: deps.now(),
    });
    if (written.kind === "absent") throw notFound(message);
    if (written.kind === "stale") throw staleEtag(deps, text);
    return toDistributorLink(written.row);
  };
}

function readFields(request: UpdateDistributorLinkRequest): ReadonlySet<LinkField> {
  const link = request.distributorLink;
  const present: LinkField[] = [];
  if (link?.displayName) present.push("display_name");
  if (link?.steam?.publisherKey) present.push("steam.publisher_key");
  if (link?.steam?.sandbox) present.push("steam.sandbox");
  // `steam` as a whole names both of its fields.
  const paths = (request.updateMask?.paths ?? []).flatMap((path) =>
    path === "steam" ? ["steam.publisher_key", "steam.sandbox"] : [path],
  );
  const mask = resolveUpdateMask<LinkField>({
    paths,
    updatable: ["display_name", "steam.publisher_key", "steam.sandbox"],
    present,
    ignored: OUTPUT_ONLY,
  });
  if (!mask.ok) throw invalidArgument(`"updateMask" names "${mask.path}", which cannot be updated.`);
  return mask.fields;
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
