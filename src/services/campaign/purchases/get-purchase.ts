import type { HandlerContext } from "@connectrpc/connect";
import type { GetPurchaseRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Purchase } from "../../../../gen/encore/campaign/v1/purchase_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findPurchase } from "../../../store/purchases-read.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toPurchase } from "./purchase-mapper.js";

export function createGetPurchase(deps: ServiceDeps) {
  return async (request: GetPurchaseRequest, ctx: HandlerContext): Promise<Purchase> => {
    const name = readName(resources.purchase, request.name, "name");
    const row = await loadAuthorized({ ctx, permission: "encore.purchases.get", name, text: request.name }, (n) =>
      findPurchase(deps.db, n),
    );
    return toPurchase(name.accountId, row);
  };
}
