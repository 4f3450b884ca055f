import type { UnpaidEnd } from "../domain/purchase-state.js";
import type { ReversalKind } from "../domain/reversal.js";

/**
 * What the money paths report to monitoring (the composition root passes a Prometheus
 * implementation). Called only by the caller whose conditional update moved the row, so a
 * purchase is counted once however many settlers raced for it.
 */
export interface PurchaseMetrics {
  purchaseEnded(state: "CREDITED" | UnpaidEnd, purchase: { creditNanos: bigint; sandbox: boolean }): void;
  /**
   * Money reconciliation moved after its page committed: credit of a purchase the
   * service had ended without it, credited from the platform's report; credit taken back by a
   * reversal of the kind named. Sandbox purchases move none and are never reported.
   */
  creditFromReport(creditNanos: bigint): void;
  creditReversed(kind: ReversalKind, nanos: bigint): void;
}
