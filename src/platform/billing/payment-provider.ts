// The payment provider that takes a developer's money for credit (DESIGN 2: platform/billing).
// It is out of reach here: the simulated provider stands in for it behind this interface, and
// tells us of a completed payment the way a provider's webhook would.

export interface CheckoutToOpen {
  /** Our checkout session's id: the provider echoes it back when the payer has paid. */
  sessionId: string;
  accountId: string;
  amountNanos: bigint;
}

export interface PaymentProvider {
  /** Opens the provider's payment page for a session; returns where the payer goes. */
  openCheckout(checkout: CheckoutToOpen): Promise<{ checkoutUrl: string }>;
}
