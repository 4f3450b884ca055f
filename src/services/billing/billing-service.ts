import type { ServiceImpl } from "@connectrpc/connect";
import type { BillingService } from "../../../gen/encore/billing/v1/billing_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import type { PaymentProvider } from "../../platform/billing/payment-provider.js";
import { createCreateCheckoutSession } from "./create-checkout-session.js";
import { createGetCheckoutSession } from "./get-checkout-session.js";
import { createListLedgerEntries } from "./list-ledger-entries.js";

/** encore.billing.v1.BillingService: buying credit and reading a project's ledger. */
export function createBillingService(deps: ServiceDeps, payments: PaymentProvider): ServiceImpl<typeof BillingService> {
  return {
    createCheckoutSession: createCreateCheckoutSession(deps, payments),
    getCheckoutSession: createGetCheckoutSession(deps),
    listLedgerEntries: createListLedgerEntries(deps),
  };
}
