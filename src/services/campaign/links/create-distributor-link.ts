import { CreateDistributorLinkRequestSchema } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { DistributorLink } from "../../../../gen/encore/campaign/v1/distributor_link_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { newId } from "../../../core/ids.js";
import { fingerprintSecret, sealSecret } from "../../../core/secret-box.js";
import { invalidArgument } from "../../../errors/status.js";
import { findLinkByRequest, insertLink, type LinkRow } from "../../../store/links.js";
import { type Idempotency, idempotencyColumns } from "../../create-once.js";
import { readDisplayName } from "../../display-name.js";
import { authorizeParent } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { createIdempotently } from "../create-idempotently.js";
import { appsOrRefusal, isPlausibleKey, ownsAGame } from "../platform-answers.js";
import { toDistributorLink } from "./link-mapper.js";

/**
 * CreateDistributorLink (spec 4.6): the key is checked with the platform and its apps read
 * before anything is stored; it is stored encrypted and only its fingerprint is returned.
 * Idempotent on request_id (AIP-155): a retry gets the first link without asking the platform.
 */
export function createCreateDistributorLink(deps: ServiceDeps): CampaignImpl["createDistributorLink"] {
  return async (request, ctx) => {
    const accountId = authorizeParent(ctx, "encore.links.create", request.parent);
    const row = await createIdempotently(deps, {
      schema: CreateDistributorLinkRequestSchema,
      request,
      resource: "distributor link",
      findEarlier: (requestId) => findLinkByRequest(deps.db, accountId, requestId),
      create: (idempotency) => insertCheckedLink(deps, { link: request.distributorLink, accountId, idempotency }),
    });
    return toDistributorLink(row);
  };
}

async function insertCheckedLink(
  deps: ServiceDeps,
  options: { link: DistributorLink | undefined; accountId: string; idempotency: Idempotency },
): Promise<LinkRow> {
  const link = options.link;
  const publisherKey = link?.steam?.publisherKey ?? "";
  if (!isPlausibleKey(publisherKey)) {
    throw invalidArgument('"distributorLink.steam.publisherKey" is required: the publisher key, without spaces.');
  }
  const displayName = readDisplayName(link?.displayName ?? "", "distributorLink.displayName", { max: 200 });
  const apps = appsOrRefusal(await deps.steam.listPartnerApps({ publisherKey }));
  if (!ownsAGame(apps)) throw invalidArgument("The publisher key owns no game on the platform.");
  const now = deps.now();
  return insertLink(deps.db, {
    id: newId(now),
    accountId: options.accountId,
    displayName,
    sandbox: link?.steam?.sandbox ?? false,
    publisherKeyEncrypted: sealSecret(deps.masterKeys, publisherKey),
    fingerprint: fingerprintSecret(publisherKey),
    now,
    ...idempotencyColumns(options.idempotency),
  });
}
