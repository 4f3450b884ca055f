import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens } from "../page-token.js";
import { createCreateOffer } from "./create-offer.js";
import { createDeleteOffer } from "./delete-offer.js";
import { createGetOffer } from "./get-offer.js";
import { createGetPurchase } from "./get-purchase.js";
import { createListOffers } from "./list-offers.js";
import { createListPurchases } from "./list-purchases.js";
import { createUpdateOffer } from "./update-offer.js";

/** Offers and the purchases made of them, as the studio manages and reads them (spec 4.6). */
export function createOfferMethods(deps: ServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  const tokens = createPageTokens(deps.masterKey);
  return {
    createOffer: createCreateOffer(deps),
    getOffer: createGetOffer(deps),
    listOffers: createListOffers(deps, tokens),
    updateOffer: createUpdateOffer(deps),
    deleteOffer: createDeleteOffer(deps),
    getPurchase: createGetPurchase(deps),
    listPurchases: createListPurchases(deps, tokens),
  };
}
