import type { Offer } from "../../../../gen/encore/campaign/v1/offer_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { LARGEST_AMOUNT, usd } from "../../../domain/money.js";
import { type Amount, checkPricing } from "../../../domain/offer-pricing.js";
import { amountOutOfRange } from "../../../errors/messages.js";
import { invalidArgument } from "../../../errors/status.js";
import { readDisplayName } from "../../display-name.js";

// What CreateOffer and UpdateOffer share: the offer's text limits and its pricing rule
// (spec 2.6, 8): price USD in whole cents, credit USD > 0 and at most price less the share.

/** Steam shows the offer's name as the order item's description: at most 128 characters. */
export function offerDisplayName(offer: Offer | undefined): string {
  return readDisplayName(offer?.displayName ?? "", "offer.displayName", { max: 128, required: true });
}

export function offerDescription(offer: Offer | undefined): string {
  return readDisplayName(offer?.description ?? "", "offer.description", { max: 2000 });
}

export function pricing(deps: ServiceDeps, price: Amount | undefined, credit: Amount | undefined) {
  if (price === undefined) throw invalidArgument('"offer.price" is required: USD in whole cents.');
  if (credit === undefined) throw invalidArgument('"offer.credit" is required: USD.');
  const share = deps.config.storefrontSharePercent;
  const checked = checkPricing(price, credit, share);
  if (checked.ok) return checked;
  const { error } = checked;
  if (error.problem === "AMOUNT_OUT_OF_RANGE")
    throw invalidArgument(amountOutOfRange(`offer.${error.field}`, LARGEST_AMOUNT));
  if (error.field === "price") throw invalidArgument('"offer.price" must be a positive USD amount in whole cents.');
  if (error.problem === "NOT_POSITIVE_USD") throw invalidArgument('"offer.credit" must be a positive USD amount.');
  const max = usd(error.maxCreditNanos);
  const cents = String(max.nanos / 10_000_000).padStart(2, "0");
  throw invalidArgument(
    `"offer.credit" must be at most the price less the storefront's ${share}% share: at most USD ${max.units}.${cents}.`,
  );
}
