import type { ServiceImpl } from "@connectrpc/connect";
import type { BillingService } from "../../../gen/encore/billing/v1/billing_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import type { PaymentProvider } from "../../platform/billing/payment-provider.js";
import { listLedgerEntries } from "../../store/ledger.js";
import { loadProject } from "../hosting/project-access.js";
import { listPage } from "../list-page.js";
import { toLedgerEntry } from "./billing-mapper.js";
import { createCheckoutSessionMethods } from "./checkout-session-methods.js";
import { parseLedgerFilter } from "./ledger-filter.js";

/** encore.billing.v1.BillingService: buying credit and reading a project's ledger. */
export function createBillingService(deps: ServiceDeps, payments: PaymentProvider): ServiceImpl<typeof BillingService> {
  return {
    ...createCheckoutSessionMethods(deps, payments),

    /** ListLedgerEntries: a project's ledger, newest first, optionally filtered by type and time. */
    async listLedgerEntries(request, ctx) {
      const project = await loadProject(deps, ctx, "billing.ledgerEntries.list", request.parent, "parent");
      const filter = parseLedgerFilter(request.filter);
      const page = await listPage(deps, request, {
        // A token is good only for the list (project and filter) that issued it.
        scope: `ledger:${project.id}:${request.filter}`,
        load: (next) => listLedgerEntries(deps.db, { projectId: project.id, ...filter, ...next }),
        cursorOf: (row) => row.cursor,
      });
      return {
        ledgerEntries: page.items.map((row) => toLedgerEntry(project, row)),
        nextPageToken: page.nextPageToken,
      };
    },
  };
}
