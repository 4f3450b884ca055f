import type { HandlerContext } from "@connectrpc/connect";
import type { CheckoutSession, GetCheckoutSessionRequest } from "../../../gen/encore/billing/v1/billing_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { findCheckoutSession } from "../../store/checkout.js";
import { loadAuthorized, readName } from "../management-access.js";
import { toCheckoutSession } from "./billing-mapper.js";

/** GetCheckoutSession: OPEN until the provider says it was paid, then COMPLETE. */
export function createGetCheckoutSession(deps: ServiceDeps) {
  return async (request: GetCheckoutSessionRequest, ctx: HandlerContext): Promise<CheckoutSession> => {
    const name = readName(resources.checkoutSession, request.name, "name");
    const row = await loadAuthorized(
      { ctx, permission: "billing.checkoutSessions.get", name, text: request.name },
      (n) => findCheckoutSession(deps.db, n.accountId, n.sessionId),
    );
    return toCheckoutSession(row);
  };
}
