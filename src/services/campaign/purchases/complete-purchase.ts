import { create } from "@bufbuild/protobuf";
import {
  type CompletePurchaseRequest,
  type CompletePurchaseResponse,
  CompletePurchaseResponseSchema,
  type PublicFunding,
} from "../../../../gen/encore/campaign/v1/public_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { shapePublicFunding } from "../../../domain/funding.js";
import { PLATFORM_UNAVAILABLE } from "../../../errors/messages.js";
import { notFound, unavailable } from "../../../errors/status.js";
import type { PublicCampaignFacts } from "../../../store/public-campaigns.js";
import { findPurchase } from "../../../store/purchases.js";
import type { BegunPurchases } from "../../../usecases/begin/begun-purchases.js";
import { publicCampaignOf, readPublicCampaign } from "../../../usecases/read-public-campaign.js";
import { settlePurchase } from "../../../usecases/settle-purchase.js";
import { toPublicFunding } from "../public/public-mapper.js";
import { toPurchaseState } from "./purchase-state-mapper.js";

/**
 * `POST /v1/public/purchases:complete` (spec 4.4): idempotent, safe to repeat and to skip. The
 * answer embeds the public funding after the purchase, or null when it cannot be read (the
 * purchase has still happened).
 */
export function createCompletePurchase(deps: ServiceDeps, begun: BegunPurchases) {
  return async (request: CompletePurchaseRequest): Promise<CompletePurchaseResponse> => {
    const remembered = begun.take(request.purchase);
    const purchase = remembered ?? (await findPurchase(deps.db, request.purchase));
    // The handle is only known together with its campaign and its order (spec 4.4: 404). A web
    // purchase is not the game's to complete (it never began it): its player's return settles
    // it, so the game is answered as for a purchase it does not know.
    if (
      !purchase ||
      purchase.campaignKey !== request.campaignKey ||
      purchase.orderId !== request.orderId ||
      purchase.channel !== "GAME"
    ) {
      throw notFound("No such purchase for this campaign.");
    }
    const options = { authorized: request.authorized };
    let settled = await settlePurchase(deps, purchase, options);
    // The begin's record holds the publisher key the order was opened with; the studio may have
    // replaced it since, and the platform revoked the old one (docs/performance.md "A complete
    // after its begin"): settled again as the database has the purchase, with the link's key now.
    if (remembered && settled.kind === "unavailable" && settled.keyRejected) {
      const current = await findPurchase(deps.db, request.purchase);
      if (current && !Buffer.from(current.publisherKeyEncrypted).equals(remembered.publisherKeyEncrypted)) {
        settled = await settlePurchase(deps, current, options);
      }
    }
    if (settled.kind === "unavailable") {
      throw unavailable(PLATFORM_UNAVAILABLE, { cause: settled.cause });
    }
    // Credited by this call or by another caller (perhaps on another replica, whose notification
    // may not have arrived yet): the public reads here answer from after the credit from now on.
    if (settled.state === "CREDITED") deps.fundingChanges?.changed(request.campaignKey);
    return create(CompletePurchaseResponseSchema, {
      state: toPurchaseState(settled.state),
      funding: await fundingAfter(deps, request.campaignKey, settled.fundingAfter),
    });
  };
}

/** As the credit that this call made left it, else as read now (credited by another caller, or not yet). */
async function fundingAfter(
  deps: ServiceDeps,
  campaignKey: string,
  credited: PublicCampaignFacts | undefined,
): Promise<PublicFunding | undefined> {
  try {
    const campaign = credited ? publicCampaignOf(credited) : await readPublicCampaign(deps, campaignKey);
    return toPublicFunding(shapePublicFunding(campaign));
  } catch (cause) {
    deps.logger.warn({ err: cause }, "funding after a purchase could not be read");
    return undefined;
  }
}
