import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteDistributorLinkRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { notFound } from "../../../errors/status.js";
import { deleteLinkUnlessUsed } from "../../../store/links.js";
import { expectedVersion, staleEtag } from "../../etag-check.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";

/** DeleteDistributorLink (spec 4.6): LINK_IN_USE while a campaign names it or a purchase went through it. */
export function createDeleteDistributorLink(deps: ServiceDeps) {
  return async (request: DeleteDistributorLinkRequest, ctx: HandlerContext): Promise<Empty> => {
    const name = readName(resources.link, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "encore.links.delete", name.accountId, message);
    const outcome = await deleteLinkUnlessUsed(deps.db, { ...name, expectedVersion: expectedVersion(request.etag) });
    if (outcome === "absent") throw notFound(message);
    if (outcome === "stale") throw staleEtag(deps, request.name);
    if (outcome === "inUse") {
      throw deps.refuse("LINK_IN_USE", {
        subject: request.name,
        message: "The link is in use: a campaign names it or a purchase was made through it.",
      });
    }
    return create(EmptySchema);
  };
}
