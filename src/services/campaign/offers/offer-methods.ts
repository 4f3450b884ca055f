import { CreateOfferRequestSchema } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { newId } from "../../../core/ids.js";
import { resources } from "../../../domain/resource-names.js";
import {
  deleteOrDeactivateOffer,
  findOffer,
  findOfferByRequest,
  insertOffer,
  listOffers,
} from "../../../store/offers.js";
import { idempotencyColumns } from "../../create-once.js";
import { authorizeName, loadAuthorized, loadParentCampaign } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { deleteConditionally } from "../conditional-delete.js";
import { createIdempotently } from "../create-idempotently.js";
import { listByCursor } from "../list-by-cursor.js";
import { offerDescription, offerDisplayName, pricing } from "./offer-fields.js";
import { toOffer } from "./offer-mapper.js";
import { createUpdateOffer } from "./update-offer.js";

/** Offers, as the studio manages and reads them (spec 4.6). */
export function createOfferMethods(deps: ServiceDeps): OfferMethods {
  return {
    updateOffer: createUpdateOffer(deps),

    /**
     * CreateOffer (spec 4.6): priced in whole US cents; active unless said otherwise. Idempotent
     * on request_id within the campaign (AIP-155).
     */
    async createOffer(request, ctx) {
      const name = await loadParentCampaign(deps, ctx, "encore.offers.create", request.parent);
      const offer = request.offer;
      const row = await createIdempotently(deps, {
        schema: CreateOfferRequestSchema,
        request,
        resource: "offer",
        findEarlier: (requestId) => findOfferByRequest(deps.db, name.campaignId, requestId),
        create: (idempotency) => {
          const displayName = offerDisplayName(offer);
          const description = offerDescription(offer);
          const { priceNanos, creditNanos } = pricing(deps, offer?.price, offer?.credit);
          const now = deps.now();
          return insertOffer(deps.db, {
            id: newId(now),
            campaignId: name.campaignId,
            displayName,
            description,
            priceNanos,
            creditNanos,
            active: offer?.active ?? true,
            now,
            ...idempotencyColumns(idempotency),
          });
        },
      });
      return toOffer(name.accountId, row);
    },

    async getOffer(request, ctx) {
      const offer = authorizeName(ctx, "encore.offers.get", resources.offer, request.name);
      return toOffer(offer.name.accountId, await loadAuthorized(offer, (n) => findOffer(deps.db, n)));
    },

    /** ListOffers (spec 4.6): every offer of the campaign, active or not, oldest first. */
    async listOffers(request, ctx) {
      const name = await loadParentCampaign(deps, ctx, "encore.offers.list", request.parent);
      const page = await listByCursor(deps, request, {
        scope: `offers:${name.campaignId}`,
        load: (next) => listOffers(deps.db, name.campaignId, next),
      });
      return { offers: page.items.map((row) => toOffer(name.accountId, row)), nextPageToken: page.nextPageToken };
    },

    /** DeleteOffer (spec 3.3, 4.6): an offer somebody bought is deactivated instead; the call succeeds either way. */
    async deleteOffer(request, ctx) {
      const offer = authorizeName(ctx, "encore.offers.delete", resources.offer, request.name);
      // Offers are reached only through their campaign's account.
      await loadAuthorized(offer, (n) => findOffer(deps.db, n));
      return deleteConditionally(deps, offer, {
        etag: request.etag,
        remove: (name, expectedVersion) =>
          deleteOrDeactivateOffer(deps.db, { ...name, expectedVersion, now: deps.now() }),
      });
    },
  };
}

type OfferMethods = Pick<CampaignImpl, "createOffer" | "getOffer" | "listOffers" | "updateOffer" | "deleteOffer">;
