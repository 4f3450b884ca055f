import type { Logger } from "pino";
import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";

/** One point asked of a limiter: taken, or refused because the key is over its limit. */
export interface LimitPoint {
  taken: boolean;
  /** Points the key held before this one (taken or not). */
  before: number;
  /**
   * Returns the point, once, and only within the window it was counted in: a point counted
   * in a window that has since ended is gone with it, and must not add to the next one.
   */
  giveBack(): Promise<void>;
}

/**
 * Counts a point against `key`. A refused point is given back at once: the store counts a
 * refused consume too, and a call answered 429 did nothing (spec 8), so it must not hold the
 * key's limit for others.
 */
export async function takePoint(limiter: RateLimiterAbstract, key: string): Promise<LimitPoint> {
  let res: RateLimiterRes;
  let taken = true;
  try {
    res = await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    res = rejection;
    taken = false;
  }
  const windowEnds = Date.now() + res.msBeforeNext;
  let held = true;
  const giveBack = async () => {
    if (!held) return;
    held = false;
    if (Date.now() < windowEnds) await limiter.reward(key, 1);
  };
  if (!taken) await giveBack();
  return { taken, before: res.consumedPoints - 1, giveBack };
}

/** A store update not awaited, so the answer does not wait on the store; a failure is a warning. */
export function quietly(logger: Pick<Logger, "warn">, work: Promise<unknown>): void {
  work.catch((error: unknown) => logger.warn({ err: error }, "rate limit not updated"));
}
