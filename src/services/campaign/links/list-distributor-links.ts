import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListDistributorLinksRequest,
  type ListDistributorLinksResponse,
  ListDistributorLinksResponseSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { listLinks } from "../../../store/links.js";
import { listPage } from "../../list-page.js";
import { authorizeParent } from "../../management-access.js";
import { toDistributorLink } from "./link-mapper.js";

/** ListDistributorLinks: the account's links, oldest first, paginated. */
export function createListDistributorLinks(deps: ServiceDeps) {
  return async (request: ListDistributorLinksRequest, ctx: HandlerContext): Promise<ListDistributorLinksResponse> => {
    const accountId = authorizeParent(ctx, "encore.links.list", request.parent);
    const page = await listPage(deps, request, {
      scope: `distributorLinks:${accountId}`,
      load: (next) => listLinks(deps.db, { accountId, ...next }),
      cursorOf: (row) => row.pageCursor,
    });
    return create(ListDistributorLinksResponseSchema, {
      distributorLinks: page.items.map(toDistributorLink),
      nextPageToken: page.nextPageToken,
    });
  };
}
