import type { ServiceDeps } from "../../core/deps.js";
import { reconcileStep } from "../../domain/reversal.js";
import type { ReportOrder } from "../../platform/steam/steam-platform.js";
import { findPurchase } from "../../store/purchases.js";
import { findReconciledPurchases } from "../../store/reconciliation.js";
import type { ReconciliationTask } from "../../store/reconciliation-leases.js";
import { settlePurchase } from "../settle-purchase.js";

/**
 * Open purchases whose order the report shows settled (a crash window, or an order settled
 * while the service was down): settled as complete and the sweeper settle them, outside the
 * page's transaction (no transaction waits on the platform). The finding that says why is
 * written in the transaction that credits, only by the call that credits. Returns how many
 * ended credited.
 */
export async function settleMissed(
  deps: ServiceDeps,
  page: { task: ReconciliationTask; appId: bigint; fresh: readonly ReportOrder[] },
): Promise<number> {
  const { task, appId, fresh } = page;
  const rows = await findReconciledPurchases(deps.db, {
    linkId: task.linkId,
    appId,
    orderIds: fresh.map((order) => order.orderid),
    lock: false,
  });
  let credited = 0;
  for (const row of rows) {
    const order = fresh.find((o) => o.orderid === row.orderId);
    if (order === undefined || reconcileStep(row, order).action !== "settle") continue;
    const purchase = await findPurchase(deps.db, row.id);
    if (purchase === undefined) continue;
    const detail = "the report showed the order settled and the purchase had not been credited; credited now";
    const result = await settlePurchase(deps, purchase, {
      finding: { kind: "CREDITED_FROM_REPORT", reportStatus: order.status, detail },
    });
    if (result.kind === "settled" && result.state === "CREDITED") {
      credited += 1;
      deps.logger.warn({ purchaseId: row.id, orderId: row.orderId, reportStatus: order.status }, detail);
    }
  }
  return credited;
}
