// How many redeliveries an endpoint may queue (docs/webhooks.md "Fairness"): at most `perHour`
// in the hour that began with the first of them; the next hour starts with the first after it.
// A redelivery queues work the delivery job then attempts, so without a bound one studio's
// clicks would be free attempts.

const HOUR_MS = 60 * 60 * 1000;

export interface RedeliveryWindow {
  /** When the current hour began; null before the endpoint's first redelivery. */
  start: Date | null;
  /** Redeliveries queued since `start`. */
  count: number;
}

export type RedeliveryAllowance =
  | { allowed: true; window: { start: Date; count: number } }
  | { allowed: false; nextAllowed: Date };

/** Whether one more redelivery fits the endpoint's hour, and the window that records it. */
export function allowRedelivery(
  window: RedeliveryWindow,
  options: { now: Date; perHour: number },
): RedeliveryAllowance {
  const { now, perHour } = options;
  if (window.start === null || now.getTime() - window.start.getTime() >= HOUR_MS) {
    return { allowed: true, window: { start: now, count: 1 } };
  }
  if (window.count < perHour) return { allowed: true, window: { start: window.start, count: window.count + 1 } };
  return { allowed: false, nextAllowed: new Date(window.start.getTime() + HOUR_MS) };
}
