import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { deleteLinkUnlessUsed, findLink, listLinks, listSettlements } from "../../../store/links.js";
import { listPage } from "../../list-page.js";
import { authorizeName, authorizeParent, loadAuthorized } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { deleteConditionally } from "../conditional-delete.js";
import { listByCursor } from "../list-by-cursor.js";
import { createCreateDistributorLink } from "./create-distributor-link.js";
import { toDistributorLink, toListing, toSettlement } from "./link-mapper.js";
import { readLinkApps } from "./read-link-apps.js";
import { createUpdateDistributorLink } from "./update-distributor-link.js";

/** Distributor links, their listings and settlements (spec 4.6). */
export function createLinkMethods(deps: ServiceDeps): LinkMethods {
  /** The `parent` link of listings and settlements, which the caller may read (links.get). */
  const loadParentLink = async (ctx: HandlerContext, parent: string) => {
    const target = authorizeName(ctx, "encore.links.get", resources.link, parent, { field: "parent" });
    const link = await loadAuthorized(target, (n) => findLink(deps.db, n.accountId, n.linkId));
    return { link, name: target.name };
  };
  return {
    createDistributorLink: createCreateDistributorLink(deps),
    updateDistributorLink: createUpdateDistributorLink(deps),

    /** GetDistributorLink (spec 4.6): never carries the key. */
    async getDistributorLink(request, ctx) {
      const link = authorizeName(ctx, "encore.links.get", resources.link, request.name);
      return toDistributorLink(await loadAuthorized(link, (n) => findLink(deps.db, n.accountId, n.linkId)));
    },

    /** ListDistributorLinks: the account's links, oldest first, paginated. */
    async listDistributorLinks(request, ctx) {
      const accountId = authorizeParent(ctx, "encore.links.list", request.parent);
      const page = await listByCursor(deps, request, {
        scope: `distributorLinks:${accountId}`,
        load: (next) => listLinks(deps.db, accountId, next),
      });
      return { distributorLinks: page.items.map(toDistributorLink), nextPageToken: page.nextPageToken };
    },

    /** DeleteDistributorLink (spec 4.6): LINK_IN_USE while a campaign names it or a purchase went through it. */
    deleteDistributorLink: (request, ctx) =>
      deleteConditionally(deps, authorizeName(ctx, "encore.links.delete", resources.link, request.name), {
        etag: request.etag,
        remove: (name, expectedVersion) => deleteLinkUnlessUsed(deps.db, { ...name, expectedVersion }),
        refusal: {
          when: "inUse",
          reason: "LINK_IN_USE",
          message: "The link is in use: a campaign names it or a purchase was made through it.",
        },
      }),

    /** ListListings: the apps the link's key owns, read from the platform now, by app id. */
    async listListings(request, ctx) {
      const { link, name } = await loadParentLink(ctx, request.parent);
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
      return { listings: page.items.map((app) => toListing(name, app)), nextPageToken: page.nextPageToken };
    },

    /** ListSettlements (spec 4.6, permission links.get): what the account paid the operator, newest first. */
    async listSettlements(request, ctx) {
      const { link, name } = await loadParentLink(ctx, request.parent);
      const page = await listByCursor(deps, request, {
        scope: `settlements:${link.id}`,
        load: (next) => listSettlements(deps.db, link.id, next),
      });
      return { settlements: page.items.map((row) => toSettlement(name, row)), nextPageToken: page.nextPageToken };
    },
  };
}

type LinkMethods = Pick<
  CampaignImpl,
  | "createDistributorLink"
  | "getDistributorLink"
  | "listDistributorLinks"
  | "updateDistributorLink"
  | "deleteDistributorLink"
  | "listListings"
  | "listSettlements"
>;
