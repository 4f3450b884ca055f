import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Purchase,
  Purchase_Channel,
  Purchase_Reversal_Kind,
  Purchase_ReversalSchema,
  PurchaseSchema,
} from "../../../../gen/encore/campaign/v1/purchase_pb.js";
import type { PurchaseChannel } from "../../../domain/purchase-state.js";
import { resources } from "../../../domain/resource-names.js";
import type { ReversalKind } from "../../../domain/reversal.js";
import type { PurchaseRow } from "../../../store/purchases-read.js";
import { toMoney } from "../../money-mapper.js";
import { toPurchaseState } from "./purchase-state-mapper.js";

/** A purchase with the price and credit it was begun with, whatever the offer says now. */
export function toPurchase(accountId: string, row: PurchaseRow): Purchase {
  const campaign = { accountId, campaignId: row.campaignId };
  return create(PurchaseSchema, {
    name: resources.purchase.format({ ...campaign, purchaseId: row.id }),
    state: toPurchaseState(row.state),
    offer: resources.offer.format({ ...campaign, offerId: row.offerId }),
    price: toMoney(row.priceNanos),
    credit: toMoney(row.creditNanos),
    orderId: row.orderId,
    sandbox: row.sandbox,
    playerId: row.playerId,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    creditTime: row.creditTime === null ? undefined : timestampFromDate(row.creditTime),
    reversal: row.reversal === null ? undefined : toReversal(row.reversal),
    channel: channels[row.channel],
  });
}

const channels: Record<PurchaseChannel, Purchase_Channel> = {
  GAME: Purchase_Channel.GAME,
  WEB: Purchase_Channel.WEB,
};

const reversalKinds: Record<ReversalKind, Purchase_Reversal_Kind> = {
  REFUNDED: Purchase_Reversal_Kind.REFUNDED,
  PARTIAL_REFUND: Purchase_Reversal_Kind.PARTIAL_REFUND,
  CHARGEDBACK: Purchase_Reversal_Kind.CHARGEDBACK,
  REFUNDED_SUSPECTED_FRAUD: Purchase_Reversal_Kind.REFUNDED_SUSPECTED_FRAUD,
  REFUNDED_FRIENDLY_FRAUD: Purchase_Reversal_Kind.REFUNDED_FRIENDLY_FRAUD,
};

function toReversal(reversal: NonNullable<PurchaseRow["reversal"]>) {
  return create(Purchase_ReversalSchema, {
    kind: reversalKinds[reversal.kind],
    reversedCredit: toMoney(reversal.reversedNanos),
    platformTime: timestampFromDate(reversal.platformTime),
    seenTime: timestampFromDate(reversal.seenTime),
  });
}
