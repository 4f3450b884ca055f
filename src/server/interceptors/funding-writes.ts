import type { Interceptor } from "@connectrpc/connect";
import type { FundingChanges } from "../../core/funding-changes.js";
import { isWriteMethod } from "../audit/audited-methods.js";
import { isPublicMethod } from "../public-methods.js";

/**
 * A public read served from the cache never contradicts a write the service made. A
 * management or operator write (an offer's price, a campaign's visibility or state, a link's
 * limit, a settlement, a top-up...) may change what funding:get and offers:list answer, and
 * names no campaign key the cache could forget alone: once it succeeded, and before its caller
 * is answered, every cached public answer is forgotten here and on the other replicas. Writes
 * are rare beside reads, so the cache refills with one read per campaign. The public calls
 * tell FundingChanges themselves (complete, on a credit).
 */
export function createFundingWritesInterceptor(fundingChanges: Pick<FundingChanges, "announceAll">): Interceptor {
  // Reads pass straight through: no promise of this interceptor's own on the hot path.
  return (next) => (req) => {
    if (!isWriteMethod(req.method) || isPublicMethod(req.method)) return next(req);
    return next(req).then(async (res) => {
      await fundingChanges.announceAll();
      return res;
    });
  };
}
