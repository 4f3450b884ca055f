import type { HandlerContext } from "@connectrpc/connect";
import type { GetDistributorLinkRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { DistributorLink } from "../../../../gen/encore/campaign/v1/distributor_link_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findLink } from "../../../store/links.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toDistributorLink } from "./link-mapper.js";

/** GetDistributorLink (spec 4.6): never carries the key. */
export function createGetDistributorLink(deps: ServiceDeps) {
  return async (request: GetDistributorLinkRequest, ctx: HandlerContext): Promise<DistributorLink> => {
    const name = readName(resources.link, request.name, "name");
    const row = await loadAuthorized({ ctx, permission: "encore.links.get", name, text: request.name }, (n) =>
      findLink(deps.db, n.accountId, n.linkId),
    );
    return toDistributorLink(row);
  };
}
