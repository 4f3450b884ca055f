import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListDistributorLinksRequest,
  type ListDistributorLinksResponse,
  ListDistributorLinksResponseSchema,
} from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { listLinks } from "../../store/links.js";
import type { ServiceDeps } from "../deps.js";
import type { PageTokens } from "../page-token.js";
import { readPageSize } from "../page-token.js";
import { authorize } from "../principal.js";
import { toDistributorLink } from "./link-mapper.js";
import { notFoundMessage, readName } from "./management-access.js";

/** ListDistributorLinks: the account's links, oldest first, paginated. */
export function createListDistributorLinks(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListDistributorLinksRequest, ctx: HandlerContext): Promise<ListDistributorLinksResponse> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", "accounts/{account}");
    authorize(ctx, "encore.links.list", accountId, notFoundMessage(request.parent));
    const size = readPageSize(request.pageSize);
    const scope = `distributorLinks:${accountId}`;
    const rows = await listLinks(deps.db, {
      accountId,
      after: tokens.decode(scope, request.pageToken),
      take: size + 1,
    });
    const page = tokens.page({ scope, rows, size, cursorOf: (row) => row.pageCursor });
    return create(ListDistributorLinksResponseSchema, {
      distributorLinks: page.items.map(toDistributorLink),
      nextPageToken: page.nextPageToken,
    });
  };
}
