// When a failed webhook delivery is tried again: exponential backoff from `baseMs`,
// doubling up to `maxMs` between attempts, with jitter (each wait drawn in [half, all] of its
// nominal length, so replicas and endpoints that failed together do not retry together), until
// the nominal waits add up to `windowMs` (about three days by default); then it is given up.

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  windowMs: number;
}

/** The nominal wait after attempt number `attempt` (1 = the first attempt failed). */
export function nominalDelayMs(policy: RetryPolicy, attempt: number): number {
  const doublings = Math.min(attempt - 1, 40);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** doublings);
}

/**
 * The wait before the next attempt after `attempts` failed ones, or undefined when the retry
 * window is spent. `random` is in [0, 1) (Math.random in the service, fixed in tests).
 */
export function nextRetryDelayMs(policy: RetryPolicy, attempts: number, random: number): number | undefined {
  let spent = 0;
  for (let attempt = 1; attempt < attempts; attempt += 1) spent += nominalDelayMs(policy, attempt);
  if (spent >= policy.windowMs) return undefined;
  return jittered(nominalDelayMs(policy, attempts), random);
}

/**
 * How long a whole endpoint waits after a failed attempt (docs/webhooks.md "Fairness"), at
 * `level` 1 for its first failure since a success and one more for each failure after a wait
 * ended: the same doubling and jitter as a delivery's retries, never given up (an endpoint that
 * keeps failing is disabled instead). No attempt reaches the endpoint while it waits, so one
 * that never answers holds the delivery job once a wait, not once a pending delivery.
 */
export function endpointBackoffMs(policy: RetryPolicy, level: number, random: number): number {
  return jittered(nominalDelayMs(policy, level), random);
}

/** A wait drawn in [half, all] of its nominal length, so failures together do not retry together. */
function jittered(nominalMs: number, random: number): number {
  return Math.round(nominalMs / 2 + (nominalMs / 2) * random);
}
