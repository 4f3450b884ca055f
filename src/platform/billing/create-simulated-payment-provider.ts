import { type CheckoutCompletion, completeCheckoutSession } from "../../store/checkout.js";
import type { Db } from "../../store/open-database.js";
import type { PaymentProvider } from "./payment-provider.js";

export interface SimulatedPaymentProviderOptions {
  db: Db;
  now: () => Date;
  /** Where the simulated payment pages live; nothing is served there. */
  baseUrl?: string;
}

export interface SimulatedPaymentProvider extends PaymentProvider {
  /**
   * The provider side: the payer paid session `sessionId`, and the provider notifies us, as
   * often as it likes (providers redeliver). The credit happens once.
   */
  pay(sessionId: string): Promise<CheckoutCompletion>;
}

const DEFAULT_BASE_URL = "https://pay.example.invalid/checkout/";

/** A payment provider that charges nobody: every session is paid when `pay` says so. */
export function createSimulatedPaymentProvider(options: SimulatedPaymentProviderOptions): SimulatedPaymentProvider {
  const base = options.baseUrl ?? DEFAULT_BASE_URL;
  return {
    openCheckout: async ({ sessionId }) => ({ checkoutUrl: `${base}${encodeURIComponent(sessionId)}` }),
    pay: (sessionId) => completeCheckoutSession(options.db, { id: sessionId, now: options.now() }),
  };
}
