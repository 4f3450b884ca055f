import type { DescMethod } from "@bufbuild/protobuf";
import { type ContextValues, createContextKey, type Interceptor } from "@connectrpc/connect";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { rateLimited } from "../../errors/status.js";
import { kClientAddress } from "../../services/peer-address.js";
import { isPublicMethod } from "../public-methods.js";

export interface RateLimitOptions {
  windowSeconds: number;
  /** Public calls per client address per window. */
  perAddress: number;
  /** purchases:begin per campaign key per window. */
  beginPerCampaign: number;
  /** Shared counters for several replicas; in memory when unset. */
  redisUrl: string | undefined;
  logger: Logger;
}

export interface RateLimit {
  interceptor: Interceptor;
  /**
   * For REST: counts a public call against its client address before its body is read
   * (spec 8: a 429 comes before any work). The interceptor then does not count it again.
   */
  admitBeforeBody(call: { route: { method: DescMethod }; contextValues: ContextValues }): Promise<void>;
  close(): Promise<void>;
}

// Set once a call was counted against its address, so no path counts it twice.
const kAddressCounted = createContextKey(false, { description: "counted against its client address" });

/**
 * Spec 8: public calls are limited per client address, the address the connection really comes
 * from (kClientAddress, never X-Forwarded-For or any caller-written header), and begin also per
 * campaign key. A 429 (code 8) is answered before any work; as an interceptor it covers REST,
 * Connect, gRPC and gRPC-web alike. With Redis, a Redis outage falls back to memory counters
 * rather than refusing every player.
 */
export function createRateLimit(options: RateLimitOptions): RateLimit {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: false, lazyConnect: false, maxRetriesPerRequest: 1 })
    : undefined;
  redis?.on("error", (error) =>
    options.logger.warn({ err: error }, "rate limit store unavailable; counting in memory"),
  );
  const limiter = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: options.windowSeconds });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration: options.windowSeconds,
      insuranceLimiter: memory,
    });
  };
  const byAddress = limiter("rl:address", options.perAddress);
  const byCampaign = limiter("rl:begin", options.beginPerCampaign);
  const beginPurchase: DescMethod = CampaignService.method.beginPurchase;

  const countAddress = async (contextValues: ContextValues) => {
    if (contextValues.get(kAddressCounted)) return;
    contextValues.set(kAddressCounted, true);
    await consume(byAddress, contextValues.get(kClientAddress));
  };
  const interceptor: Interceptor = (next) => async (req) => {
    if (!isPublicMethod(req.method)) return next(req);
    await countAddress(req.contextValues);
    if (req.method === beginPurchase && !req.stream) {
      await consume(byCampaign, (req.message as { campaignKey?: string }).campaignKey ?? "");
    }
    return next(req);
  };
  return {
    interceptor,
    admitBeforeBody: async ({ route, contextValues }) => {
      if (isPublicMethod(route.method)) await countAddress(contextValues);
    },
    close: async () => {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw rateLimited();
    throw rejection;
  }
}
