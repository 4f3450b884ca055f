import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteDistributorLinkRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { deleteLinkUnlessUsed } from "../../../store/links.js";
import { deletionOutcome, expectedVersion } from "../../etag-check.js";
import { authorizeName } from "../../management-access.js";

/** DeleteDistributorLink (spec 4.6): LINK_IN_USE while a campaign names it or a purchase went through it. */
export function createDeleteDistributorLink(deps: ServiceDeps) {
  return async (request: DeleteDistributorLinkRequest, ctx: HandlerContext): Promise<Empty> => {
    const link = authorizeName(ctx, "encore.links.delete", resources.link, request.name);
    const deletion = await deleteLinkUnlessUsed(deps.db, {
      ...link.name,
      expectedVersion: expectedVersion(request.etag),
    });
    if (deletionOutcome(deps, deletion, link) === "inUse") {
      throw deps.refuse("LINK_IN_USE", {
        subject: request.name,
        message: "The link is in use: a campaign names it or a purchase was made through it.",
      });
    }
    return create(EmptySchema);
  };
}
