import type { ServiceDeps } from "../../../core/deps.js";
import { createCreateOffer } from "./create-offer.js";
import { createDeleteOffer } from "./delete-offer.js";
import { createGetOffer } from "./get-offer.js";
import { createListOffers } from "./list-offers.js";
import { createUpdateOffer } from "./update-offer.js";

/** Offers, as the studio manages and reads them (spec 4.6). */
export function createOfferMethods(deps: ServiceDeps) {
  return {
    createOffer: createCreateOffer(deps),
    getOffer: createGetOffer(deps),
    listOffers: createListOffers(deps),
    updateOffer: createUpdateOffer(deps),
    deleteOffer: createDeleteOffer(deps),
  };
}
