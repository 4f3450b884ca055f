import type { HandlerContext } from "@connectrpc/connect";
import type { CheckoutSession, GetCheckoutSessionRequest } from "../../../gen/encore/billing/v1/billing_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { findCheckoutSession } from "../../store/checkout.js";
import { authorizeName, loadAuthorized } from "../management-access.js";
import { toCheckoutSession } from "./billing-mapper.js";

/** GetCheckoutSession: OPEN until the provider says it was paid, then COMPLETE. */
export function createGetCheckoutSession(deps: ServiceDeps) {
  return async (request: GetCheckoutSessionRequest, ctx: HandlerContext): Promise<CheckoutSession> => {
    const session = authorizeName(ctx, "billing.checkoutSessions.get", resources.checkoutSession, request.name);
    return toCheckoutSession(
      await loadAuthorized(session, (n) => findCheckoutSession(deps.db, n.accountId, n.sessionId)),
    );
  };
}
