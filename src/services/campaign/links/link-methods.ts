import type { ServiceDeps } from "../../../core/deps.js";
import { createCreateDistributorLink } from "./create-distributor-link.js";
import { createDeleteDistributorLink } from "./delete-distributor-link.js";
import { createGetDistributorLink } from "./get-distributor-link.js";
import { createListDistributorLinks } from "./list-distributor-links.js";
import { createListListings } from "./list-listings.js";
import { createListSettlements } from "./list-settlements.js";
import { createUpdateDistributorLink } from "./update-distributor-link.js";

/** Distributor links, their listings and settlements (spec 4.6). */
export function createLinkMethods(deps: ServiceDeps) {
  return {
    createDistributorLink: createCreateDistributorLink(deps),
    getDistributorLink: createGetDistributorLink(deps),
    listDistributorLinks: createListDistributorLinks(deps),
    updateDistributorLink: createUpdateDistributorLink(deps),
    deleteDistributorLink: createDeleteDistributorLink(deps),
    listListings: createListListings(deps),
    listSettlements: createListSettlements(deps),
  };
}
