import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListListingsRequest,
  type ListListingsResponse,
  ListListingsResponseSchema,
} from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { parseLinkName } from "../../domain/resource-names.js";
import { findLink } from "../../store/links.js";
import type { ServiceDeps } from "../deps.js";
import { type PageTokens, readPageSize } from "../page-token.js";
import { LINK_SHAPE } from "./get-distributor-link.js";
import { toListing } from "./link-mapper.js";
import { loadAuthorized, readName } from "./management-access.js";
import { readLinkApps } from "./read-link-apps.js";

/** ListListings: the apps the link's key owns, read from the platform now, by app id. */
export function createListListings(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListListingsRequest, ctx: HandlerContext): Promise<ListListingsResponse> => {
    const name = readName(parseLinkName(request.parent), "parent", LINK_SHAPE);
    const link = await loadAuthorized({ ctx, permission: "encore.links.get", name, text: request.parent }, (n) =>
      findLink(deps.db, n.accountId, n.linkId),
    );
    const size = readPageSize(request.pageSize);
    const scope = `listings:${link.id}`;
    const after = tokens.decode(scope, request.pageToken)?.[0];
    const apps = (await readLinkApps(deps, link, request.parent))
      .filter((app) => after === undefined || app.appid > Number(after))
      .sort((a, b) => a.appid - b.appid)
      .slice(0, size + 1);
    const page = tokens.page({ scope, rows: apps, size, cursorOf: (app) => [String(app.appid)] });
    return create(ListListingsResponseSchema, {
      listings: page.items.map((app) => toListing(name, app)),
      nextPageToken: page.nextPageToken,
    });
  };
}
