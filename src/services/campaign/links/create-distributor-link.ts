import type { HandlerContext } from "@connectrpc/connect";
import {
  type CreateDistributorLinkRequest,
  CreateDistributorLinkRequestSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { DistributorLink } from "../../../../gen/encore/campaign/v1/distributor_link_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { newId } from "../../../core/ids.js";
import { fingerprintSecret, sealSecret } from "../../../core/secret-box.js";
import { invalidArgument } from "../../../errors/status.js";
import { findLinkByRequest, insertLink, type LinkRow } from "../../../store/links.js";
import { createOnce, type Idempotency, idempotencyColumns, readIdempotency } from "../../create-once.js";
import { readDisplayName } from "../../display-name.js";
import { authorizeParent } from "../../management-access.js";
import { appsOrRefusal, isPlausibleKey, ownsAGame } from "../platform-answers.js";
import { toDistributorLink } from "./link-mapper.js";

/**
 * CreateDistributorLink (spec 4.6): the key is checked with the platform and its apps read
 * before anything is stored; it is stored encrypted and only its fingerprint is returned.
 * Idempotent on request_id (AIP-155): a retry gets the first link without asking the platform.
 */
export function createCreateDistributorLink(deps: ServiceDeps) {
  return async (request: CreateDistributorLinkRequest, ctx: HandlerContext): Promise<DistributorLink> => {
    const accountId = authorizeParent(ctx, "encore.links.create", request.parent);
    const idempotency = readIdempotency(deps.masterKeys, CreateDistributorLinkRequestSchema, request);
    const row = await createOnce({
      idempotency,
      findEarlier: (requestId) => findLinkByRequest(deps.db, accountId, requestId),
      create: () => insertCheckedLink(deps, { request, accountId, idempotency }),
      resource: "distributor link",
    });
    return toDistributorLink(row);
  };
}

async function insertCheckedLink(
  deps: ServiceDeps,
  options: { request: CreateDistributorLinkRequest; accountId: string; idempotency: Idempotency },
): Promise<LinkRow> {
  const link = options.request.distributorLink;
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
