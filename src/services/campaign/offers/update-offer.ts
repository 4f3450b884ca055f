import type { HandlerContext } from "@connectrpc/connect";
import type { UpdateOfferRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Offer } from "../../../../gen/encore/campaign/v1/offer_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { versionOfEtag } from "../../../domain/etag.js";
import { type OfferName, resources } from "../../../domain/resource-names.js";
import { resolveUpdateMask } from "../../../domain/update-mask.js";
import { invalidArgument, notFound } from "../../../errors/status.js";
import { findOffer, type OfferChanges, type OfferRow, updateOfferAtVersion } from "../../../store/offers.js";
import { staleEtag } from "../../etag-check.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";
import { offerDescription, offerDisplayName, pricing } from "./offer-fields.js";
import { toOffer } from "./offer-mapper.js";

type OfferField = "display_name" | "description" | "price" | "credit" | "active";

const OUTPUT_ONLY = ["name", "etag", "create_time", "update_time"];
// Without an etag, a write that lost a race is redone on the fresh row this many times.
const ATTEMPTS = 3;

/**
 * UpdateOffer (spec 4.6): display_name, description, price, credit, active. Pricing is
 * checked against the merged offer, and written only while the offer is at the version read
 * (or the etag's). Purchases keep the price they began with (spec 4.6: a new price applies to
 * purchases begun afterwards).
 */
export function createUpdateOffer(deps: ServiceDeps) {
  return async (request: UpdateOfferRequest, ctx: HandlerContext): Promise<Offer> => {
    const text = request.offer?.name ?? "";
    const name = readName(resources.offer, text, "offer.name");
    const message = notFoundMessage(text);
    authorize(ctx, "encore.offers.update", name.accountId, message);
    const fields = readFields(request);
    const etag = request.offer?.etag ?? "";
    for (let attempt = 1; ; attempt += 1) {
      const current = await findOffer(deps.db, name);
      if (!current) throw notFound(message);
      const version = etag === "" ? current.version : (versionOfEtag(etag) ?? 0);
      if (version !== current.version) throw staleEtag(deps, text);
      const written = await write(deps, { name, current, fields, request });
      if (written.kind === "written") return toOffer(name.accountId, written.row);
      if (written.kind === "absent") throw notFound(message);
      if (etag !== "" || attempt === ATTEMPTS) throw staleEtag(deps, text);
    }
  };
}

function readFields(request: UpdateOfferRequest): ReadonlySet<OfferField> {
  const offer = request.offer;
  const present: OfferField[] = [];
  if (offer?.displayName) present.push("display_name");
  if (offer?.description) present.push("description");
  if (offer?.price) present.push("price");
  if (offer?.credit) present.push("credit");
  if (offer?.active !== undefined) present.push("active");
  const mask = resolveUpdateMask<OfferField>({
    paths: request.updateMask?.paths ?? [],
    updatable: ["display_name", "description", "price", "credit", "active"],
    present,
    ignored: OUTPUT_ONLY,
  });
  if (!mask.ok) throw invalidArgument(`"updateMask" names "${mask.path}", which cannot be updated.`);
  return mask.fields;
}

interface Write {
  name: OfferName;
  current: OfferRow;
  fields: ReadonlySet<OfferField>;
  request: UpdateOfferRequest;
}

function write(deps: ServiceDeps, { name, current, fields, request }: Write) {
  const offer = request.offer;
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
