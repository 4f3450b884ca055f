import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Funding, FundingSchema } from "../../../../gen/encore/campaign/v1/purchase_pb.js";
import { resources } from "../../../domain/resource-names.js";
import type { FundingFacts } from "../../../store/purchases-read.js";
import { toMoney } from "../../money-mapper.js";

export interface FundingView extends FundingFacts {
  runwayDays: bigint | undefined;
  windowStart: Date;
  windowEnd: Date;
}

/** The studio's view of a campaign's funding (GetFunding): exact figures, whatever players see. */
export function toFunding(name: { accountId: string; campaignId: string }, view: FundingView): Funding {
  return create(FundingSchema, {
    name: resources.funding.format(name),
    balance: toMoney(view.balanceNanos),
    sevenDaySpend: toMoney(view.spendNanos),
    runwayDays: view.runwayDays,
    purchaseCount: view.purchaseCount,
    purchasedCredit: toMoney(view.purchasedCreditNanos),
    windowStartTime: timestampFromDate(view.windowStart),
    windowEndTime: timestampFromDate(view.windowEnd),
    reversalCount: view.reversalCount,
    reversedCredit: toMoney(view.reversedCreditNanos),
  });
}
