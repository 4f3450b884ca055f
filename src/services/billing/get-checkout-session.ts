import type { HandlerContext } from "@connectrpc/connect";
import type { CheckoutSession, GetCheckoutSessionRequest } from "../../../gen/encore/billing/v1/billing_service_pb.js";
import { findCheckoutSession } from "../../store/checkout.js";
import { loadAuthorized, readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { toCheckoutSession } from "./billing-mapper.js";
import { parseCheckoutSessionName } from "./billing-names.js";

/** GetCheckoutSession: OPEN until the provider says it was paid, then COMPLETE. */
export function createGetCheckoutSession(deps: ServiceDeps) {
  return async (request: GetCheckoutSessionRequest, ctx: HandlerContext): Promise<CheckoutSession> => {
    const name = readName(
      parseCheckoutSessionName(request.name),
      "name",
      "accounts/{account}/checkoutSessions/{checkout_session}",
    );
    const row = await loadAuthorized(
      { ctx, permission: "billing.checkoutSessions.get", name, text: request.name },
      (n) => findCheckoutSession(deps.db, n.accountId, n.sessionId),
    );
    return toCheckoutSession(row);
  };
}
