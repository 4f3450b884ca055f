import { create } from "@bufbuild/protobuf";
import {
  type PublicFunding,
  PublicFundingSchema,
  type PublicOffer,
  PublicOfferSchema,
} from "../../../../gen/encore/campaign/v1/public_pb.js";
import { FundingVisibility } from "../../../../gen/encore/campaign/v1/visibility_pb.js";
import type { FundingVisibility as DomainVisibility, PublicFundingView } from "../../../domain/funding.js";
import type { PublicOfferRow } from "../../../store/public-campaigns.js";
import { toMoney } from "../../money-mapper.js";

const visibilities: Record<DomainVisibility, FundingVisibility> = {
  EXACT_BALANCE: FundingVisibility.EXACT_BALANCE,
  RUNWAY: FundingVisibility.RUNWAY,
  FUNDED_ONLY: FundingVisibility.FUNDED_ONLY,
};

export function toFundingVisibility(visibility: DomainVisibility): FundingVisibility {
  return visibilities[visibility];
}

export function toPublicFunding(view: PublicFundingView): PublicFunding {
  return create(PublicFundingSchema, {
    funded: view.funded,
    balance: view.balanceNanos === undefined ? undefined : toMoney(view.balanceNanos),
    runwayDays: view.runwayDays,
    visibility: toFundingVisibility(view.visibility),
    purchasable: view.purchasable,
    unavailableReason: view.unavailableReason,
  });
}

export function toPublicOffer(row: PublicOfferRow): PublicOffer {
  return create(PublicOfferSchema, {
    offerId: row.id,
    displayName: row.displayName,
    description: row.description,
    price: toMoney(row.priceNanos),
  });
}
