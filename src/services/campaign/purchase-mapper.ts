import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Purchase, PurchaseSchema } from "../../../gen/encore/campaign/v1/purchase_pb.js";
import { names } from "../../domain/resource-names.js";
import type { PurchaseRow } from "../../store/purchases-read.js";
import { toMoney } from "../money-mapper.js";
import { toPurchaseState } from "./purchase-state-mapper.js";

/** A purchase with the price and credit it was begun with, whatever the offer says now. */
export function toPurchase(accountId: string, row: PurchaseRow): Purchase {
  const campaign = { accountId, campaignId: row.campaignId };
  return create(PurchaseSchema, {
    name: names.purchase({ ...campaign, purchaseId: row.id }),
    state: toPurchaseState(row.state),
    offer: names.offer({ ...campaign, offerId: row.offerId }),
    price: toMoney(row.priceNanos),
    credit: toMoney(row.creditNanos),
    orderId: row.orderId,
    sandbox: row.sandbox,
    playerId: row.playerId,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    creditTime: row.creditTime === null ? undefined : timestampFromDate(row.creditTime),
  });
}
