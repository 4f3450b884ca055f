import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens } from "../page-token.js";
import { createCreateDistributorLink } from "./create-distributor-link.js";
import { createDeleteDistributorLink } from "./delete-distributor-link.js";
import { createGetDistributorLink } from "./get-distributor-link.js";
import { createListDistributorLinks } from "./list-distributor-links.js";
import { createListListings } from "./list-listings.js";
import { createListSettlements } from "./list-settlements.js";
import { createUpdateDistributorLink } from "./update-distributor-link.js";

/** Distributor links, their listings and settlements (spec 4.6). */
export function createLinkMethods(deps: ServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  const tokens = createPageTokens(deps.masterKey);
  return {
    createDistributorLink: createCreateDistributorLink(deps),
    getDistributorLink: createGetDistributorLink(deps),
    listDistributorLinks: createListDistributorLinks(deps, tokens),
    updateDistributorLink: createUpdateDistributorLink(deps),
    deleteDistributorLink: createDeleteDistributorLink(deps),
    listListings: createListListings(deps, tokens),
    listSettlements: createListSettlements(deps, tokens),
  };
}
