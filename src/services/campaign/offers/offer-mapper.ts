import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Offer, OfferSchema } from "../../../../gen/encore/campaign/v1/offer_pb.js";
import { etagOf } from "../../../domain/etag.js";
import { resources } from "../../../domain/resource-names.js";
import type { OfferRow } from "../../../store/offers.js";
import { toMoney } from "../../money-mapper.js";

/** The studio's view of an offer, credit included (players never see credit, spec 2.4). */
export function toOffer(accountId: string, row: OfferRow): Offer {
  return create(OfferSchema, {
    name: resources.offer.format({ accountId, campaignId: row.campaignId, offerId: row.id }),
    displayName: row.displayName,
    description: row.description,
    price: toMoney(row.priceNanos),
    credit: toMoney(row.creditNanos),
    active: row.active,
    etag: etagOf(row.version),
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
  });
}
