import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListSettlementsRequest,
  type ListSettlementsResponse,
  ListSettlementsResponseSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findLink, listSettlements } from "../../../store/links.js";
import { listPage } from "../../list-page.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toSettlement } from "./link-mapper.js";

/** ListSettlements (spec 4.6, permission links.get): what the account paid the operator, newest first. */
export function createListSettlements(deps: ServiceDeps) {
  return async (request: ListSettlementsRequest, ctx: HandlerContext): Promise<ListSettlementsResponse> => {
    const name = readName(resources.link, request.parent, "parent");
    const link = await loadAuthorized({ ctx, permission: "encore.links.get", name, text: request.parent }, (n) =>
      findLink(deps.db, n.accountId, n.linkId),
    );
    const page = await listPage(deps, request, {
      scope: `settlements:${link.id}`,
      load: (next) => listSettlements(deps.db, { linkId: link.id, ...next }),
      cursorOf: (row) => row.pageCursor,
    });
    return create(ListSettlementsResponseSchema, {
      settlements: page.items.map((row) => toSettlement(name, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
