import type { Logger } from "pino";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { rateLimited } from "../../errors/status.js";
import { addressGroup } from "../address-group.js";
import { quietly, takePoint } from "./limit-point.js";

export interface FailedAuthLimitOptions {
  /** The address's counter: `points` per window, in memory or shared through Redis (rate-limit.ts). */
  limiter: RateLimiterAbstract;
  logger: Logger;
  /** A call was refused with 429 (for /metrics). */
  onRefused?: () => void;
}

export interface FailedAuthLimit {
  /**
   * 429 (code 8) when the address has no failed authentication left in this window; counts
   * nothing. For a caller that must refuse before it reads a body (REST, the payment webhook).
   */
  refuseIfSpent(address: string): Promise<void>;
  /**
   * Runs `authenticate` as one attempt of the address: 429 (code 8) before it when the address
   * has no failed authentication left; afterwards the attempt stays counted only if it failed
   * (`authenticate` answered undefined). Its answer is returned as it is.
   */
  attempt<T>(address: string, authenticate: () => Promise<T | undefined>): Promise<T | undefined>;
}

/**
 * Failed authentications per client address (an IPv6 address counts as its /64), spec 8's rate
 * limit applied to every call that needs a credential (docs/abuse-limits.md "Failed
 * authentication"). An attempt takes its point before any work (no token hashed, no database
 * asked), so attempts in flight count too and a burst cannot pass the limit together; a caller
 * the service recognised gives it back at once, so a valid credential never spends the budget.
 * A refused attempt takes nothing (limit-point.ts).
 */
export function createFailedAuthLimit(options: FailedAuthLimitOptions): FailedAuthLimit {
  const { limiter } = options;
  const refuse = () => {
    options.onRefused?.();
    return rateLimited();
  };
  return {
    async refuseIfSpent(address) {
      const held = await limiter.get(addressGroup(address));
      if (held !== null && held.consumedPoints >= limiter.points) throw refuse();
    },
    async attempt(address, authenticate) {
      const point = await takePoint(limiter, addressGroup(address));
      if (!point.taken) throw refuse();
      let answer: Awaited<ReturnType<typeof authenticate>>;
      try {
        answer = await authenticate();
      } catch (error) {
        // Not a failed authentication: the credential could not be judged (the database failed).
        quietly(options.logger, point.giveBack());
        throw error;
      }
      if (answer !== undefined) quietly(options.logger, point.giveBack());
      return answer;
    },
  };
}
