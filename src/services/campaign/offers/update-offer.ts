import { type Offer, OfferSchema } from "../../../../gen/encore/campaign/v1/offer_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { versionOfEtag } from "../../../domain/etag.js";
import { type OfferName, resources } from "../../../domain/resource-names.js";
import { notFound } from "../../../errors/status.js";
import { findOffer, type OfferChanges, type OfferRow, updateOfferAtVersion } from "../../../store/offers.js";
import { staleEtag } from "../../etag-check.js";
import { authorizeName, loadAuthorized } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { updatedFields } from "../update-fields.js";
import { offerDescription, offerDisplayName, pricing } from "./offer-fields.js";
import { toOffer } from "./offer-mapper.js";

type OfferField = "display_name" | "description" | "price" | "credit" | "active";

// Without an etag, a write that lost a race is redone on the fresh row this many times.
const ATTEMPTS = 3;

/**
 * UpdateOffer (spec 4.6): display_name, description, price, credit, active. Pricing is
 * checked against the merged offer, and written only while the offer is at the version read
 * (or the etag's). Purchases keep the price they began with (spec 4.6: a new price applies to
 * purchases begun afterwards).
 */
export function createUpdateOffer(deps: ServiceDeps): CampaignImpl["updateOffer"] {
  return async (request, ctx) => {
    const offer = request.offer;
    const target = authorizeName(ctx, "encore.offers.update", resources.offer, offer?.name ?? "", {
      field: "offer.name",
    });
    const { name, text } = target;
    const fields = updatedFields<OfferField>({
      resource: OfferSchema,
      paths: request.updateMask?.paths ?? [],
      given: {
        display_name: offer?.displayName,
        description: offer?.description,
        price: offer?.price,
        credit: offer?.credit,
        active: offer?.active !== undefined,
      },
    });
    const etag = offer?.etag ?? "";
    for (let attempt = 1; ; attempt += 1) {
      const current = await loadAuthorized(target, (n) => findOffer(deps.db, n));
      const version = etag === "" ? current.version : (versionOfEtag(etag) ?? 0);
      if (version !== current.version) throw staleEtag(deps, text);
      const written = await write(deps, { name, current, fields, offer });
      if (written.kind === "written") return toOffer(name.accountId, written.row);
      if (written.kind === "absent") throw notFound(target.message);
      if (etag !== "" || attempt === ATTEMPTS) throw staleEtag(deps, text);
    }
  };
}

interface Write {
  name: OfferName;
  current: OfferRow;
  fields: ReadonlySet<OfferField>;
  offer: Offer | undefined;
}

function write(deps: ServiceDeps, { name, current, fields, offer }: Write) {
  const changes: OfferChanges = {};
  if (fields.has("display_name")) changes.displayName = offerDisplayName(offer);
  if (fields.has("description")) changes.description = offerDescription(offer);
  if (fields.has("active")) changes.active = offer?.active ?? false;
  if (fields.has("price") || fields.has("credit")) {
    const price = fields.has("price") ? offer?.price : current.priceNanos;
    const credit = fields.has("credit") ? offer?.credit : current.creditNanos;
    const priced = pricing(deps, price, credit);
    changes.priceNanos = priced.priceNanos;
    changes.creditNanos = priced.creditNanos;
  }
  return updateOfferAtVersion(deps.db, {
    campaignId: name.campaignId,
    offerId: name.offerId,
    version: current.version,
    changes,
    now: deps.now(),
  });
}
