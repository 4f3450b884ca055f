import type { Interceptor } from "@connectrpc/connect";
import type { FundingChanges } from "../../core/funding-changes.js";
import { isWriteMethod } from "../audit/audited-methods.js";
import { isPublicMethod } from "../public-methods.js";

/**
 * A public read served from the cache never contradicts a write the service made: a management
 * or operator write may change what funding:get and offers:list answer and names no campaign key
 * to forget alone, so once it succeeded, before its caller is answered, every cached public
 * answer is forgotten here and on the other replicas (writes are rare beside reads). The public
 * calls tell FundingChanges themselves.
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
