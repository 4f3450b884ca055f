import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type BeginPurchaseRequest,
  type BeginPurchaseResponse,
  BeginPurchaseResponseSchema,
} from "../../../../gen/encore/campaign/v1/public_pb.js";
import { kClientAddress, kTicketVerdict } from "../../../core/context-keys.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { createBeginPurchaseUseCase } from "../../../usecases/begin/begin-purchase.js";
import type { BegunPurchases } from "../../../usecases/begin/begun-purchases.js";
import { authenticatePlayer } from "./player-ticket.js";

/**
 * `POST /v1/public/purchases:begin` (spec 4.3): the begin use case (src/usecases/begin/), for a
 * player the platform vouches for by the game's ticket, checked with the studio's key once every
 * local refusal has passed.
 */
export function createBeginPurchase(deps: ServiceDeps, begun: BegunPurchases) {
  const begin = createBeginPurchaseUseCase(deps, begun);
  return async (request: BeginPurchaseRequest, context: HandlerContext): Promise<BeginPurchaseResponse> => {
    const answer = await begin({
      campaignKey: request.campaignKey,
      offerId: request.offerId,
      requestId: request.requestId,
      language: request.language,
      clientAddress: context.values.get(kClientAddress),
      player: (check) =>
        authenticatePlayer(deps, {
          campaignKey: request.campaignKey,
          ...check,
          ticket: request.authTicket,
          onVerdict: (verdict) => context.values.set(kTicketVerdict, verdict),
        }),
    });
    return create(BeginPurchaseResponseSchema, { purchase: answer.purchase, orderId: answer.orderId });
  };
}
