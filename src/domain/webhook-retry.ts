// When a failed webhook delivery is tried again (issue 16): exponential backoff from `baseMs`,
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
  const nominal = nominalDelayMs(policy, attempts);
  return Math.round(nominal / 2 + (nominal / 2) * random);
}
