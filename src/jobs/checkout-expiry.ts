import type { ServiceDeps } from "../core/deps.js";
import { expireCheckoutSessions } from "../store/checkout.js";
import { createIntervalJob } from "./interval-job.js";
import type { Job } from "./job.js";

export interface CheckoutExpiryOptions {
  deps: Pick<ServiceDeps, "db" | "now" | "logger">;
  /** Time between runs: how long past its lifetime a session may still read OPEN. */
  intervalMs?: number;
}

export type CheckoutExpiry = Job & { runOnce(): Promise<number> };

// A checkout session is a payment page left open: after a day a payer who never paid has
// abandoned it (the proto's STATE_EXPIRED: "Abandoned or expired"), and a late payment for it
// must not credit. The provider's own pages expire within the same day.
export const CHECKOUT_SESSION_LIFETIME_MS = 24 * 60 * 60_000;
const DEFAULT_INTERVAL_MS = 5 * 60_000;

/**
 * Moves OPEN checkout sessions older than CHECKOUT_SESSION_LIFETIME_MS to EXPIRED. The update is
 * conditional on OPEN, so replicas running it at once need no lease, and completion (also
 * conditional on OPEN) credits a session only if it was paid before it expired.
 */
export function createCheckoutExpiry(options: CheckoutExpiryOptions): CheckoutExpiry {
  const { deps } = options;
  const runOnce = () =>
    expireCheckoutSessions(deps.db, { openedBefore: new Date(deps.now().getTime() - CHECKOUT_SESSION_LIFETIME_MS) });
  const job = createIntervalJob({
    name: "checkout-expiry",
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
    runOnce,
    logger: deps.logger.child({ job: "checkout-expiry" }),
  });
  return { name: job.name, start: job.start, stop: job.stop, runOnce };
}
