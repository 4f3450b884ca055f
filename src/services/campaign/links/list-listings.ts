import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListListingsRequest,
  type ListListingsResponse,
  ListListingsResponseSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findLink } from "../../../store/links.js";
import { listPage } from "../../list-page.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toListing } from "./link-mapper.js";
import { readLinkApps } from "./read-link-apps.js";

/** ListListings: the apps the link's key owns, read from the platform now, by app id. */
export function createListListings(deps: ServiceDeps) {
  return async (request: ListListingsRequest, ctx: HandlerContext): Promise<ListListingsResponse> => {
    const name = readName(resources.link, request.parent, "parent");
    const link = await loadAuthorized({ ctx, permission: "encore.links.get", name, text: request.parent }, (n) =>
      findLink(deps.db, n.accountId, n.linkId),
    );
    const page = await listPage(deps, request, {
      scope: `listings:${link.id}`,
      // The platform answers every app at once; the page is cut from them in appid order.
      load: async ({ after, take }) =>
        (await readLinkApps(deps, link, request.parent))
          .filter((app) => after === undefined || app.appid > Number(after[0]))
          .sort((a, b) => a.appid - b.appid)
          .slice(0, take),
      cursorOf: (app) => [String(app.appid)],
    });
    return create(ListListingsResponseSchema, {
      listings: page.items.map((app) => toListing(name, app)),
      nextPageToken: page.nextPageToken,
    });
  };
}
