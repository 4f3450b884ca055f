import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListSettlementsRequest,
  type ListSettlementsResponse,
  ListSettlementsResponseSchema,
} from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { parseLinkName } from "../../domain/resource-names.js";
import { findLink, listSettlements } from "../../store/links.js";
import type { ServiceDeps } from "../deps.js";
import { type PageTokens, readPageSize } from "../page-token.js";
import { LINK_SHAPE } from "./get-distributor-link.js";
import { toSettlement } from "./link-mapper.js";
import { loadAuthorized, readName } from "./management-access.js";

/** ListSettlements (spec 4.6, permission links.get): what the account paid the operator, newest first. */
export function createListSettlements(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListSettlementsRequest, ctx: HandlerContext): Promise<ListSettlementsResponse> => {
    const name = readName(parseLinkName(request.parent), "parent", LINK_SHAPE);
    const link = await loadAuthorized({ ctx, permission: "encore.links.get", name, text: request.parent }, (n) =>
      findLink(deps.db, n.accountId, n.linkId),
    );
    const size = readPageSize(request.pageSize);
    const scope = `settlements:${link.id}`;
    const rows = await listSettlements(deps.db, {
      linkId: link.id,
      after: tokens.decode(scope, request.pageToken),
      take: size + 1,
    });
    const page = tokens.page({ scope, rows, size, cursorOf: (row) => row.pageCursor });
    return create(ListSettlementsResponseSchema, {
      settlements: page.items.map((row) => toSettlement(name, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
