import { createRequire } from "node:module";
import type { DescMethod } from "@bufbuild/protobuf";
import type { ContextValues, Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { RateLimitSettings } from "../../config.js";
import { kAddressCounted, kClientAddress, kTicketVerdict } from "../../core/context-keys.js";
import { rateLimited } from "../../errors/status.js";
import type { FundLimits } from "../../fund/fund-routes.js";
import { redactUrl } from "../../startup/redact-url.js";
import type { RateLimitName } from "../../telemetry/metrics.js";
import { isPublicMethod } from "../public-methods.js";
import { createBeginLimits } from "./begin-limits.js";
import { createFailedAuthLimit } from "./failed-auth-limit.js";
import type { Call, Next } from "./interceptor-types.js";

export interface RateLimitOptions extends RateLimitSettings {
  /** Shared counters for several replicas; in memory when unset. */
  redisUrl: string | undefined;
  logger: Logger;
  /** A call was refused with 429 (for /metrics). */
  onRefused?: (limit: RateLimitName) => void;
}

/**
 * `memory`: no REDIS_URL. With REDIS_URL: `connecting` until the first connection, `ready` while
 * Redis counts, `unavailable` while it does not (each replica then counts in memory).
 */
export type RateLimitStatus = { store: "memory" } | { store: "redis"; redis: "connecting" | "ready" | "unavailable" };

/**
 * Spec 8: public calls are limited per client address (kClientAddress, never a caller-written
 * header), and begin also per campaign key (begin-limits.ts); every other call by its address's
 * failed authentications (failed-auth-limit.ts). A 429 (code 8) comes before any work, on every
 * protocol. A Redis outage falls back to memory counters rather than refusing every player.
 */
export function createRateLimit(options: RateLimitOptions) {
  const redis = options.redisUrl
    ? new (loadRedis())(options.redisUrl, { enableOfflineQueue: false, lazyConnect: false, maxRetriesPerRequest: 1 })
    : undefined;
  // One warning per outage, not one per reconnect attempt, and one line when it is back.
  let redisState: "connecting" | "ready" | "unavailable" = "connecting";
  redis?.on("error", (error) => {
    if (redisState === "unavailable") return;
    redisState = "unavailable";
    options.logger.warn(
      { redis: redactUrl(options.redisUrl ?? ""), error: error.message || (error as { code?: string }).code },
      "REDIS_URL unavailable: rate limits counted in memory per replica until it is back",
    );
  });
  redis?.on("ready", () => {
    if (redisState === "unavailable") options.logger.info("REDIS_URL reachable again: rate limits counted in Redis");
    redisState = "ready";
  });
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
  const begins = createBeginLimits({ ...options, limiter });
  const failedAuth = createFailedAuthLimit({
    limiter: limiter("rl:auth:address", options.failedAuthPerAddress),
    logger: options.logger,
    onRefused: () => options.onRefused?.("failed_auth"),
  });
  const beginPurchase: DescMethod = CampaignService.method.beginPurchase;

  const countAddress = async (contextValues: ContextValues) => {
    if (contextValues.get(kAddressCounted)) return;
    contextValues.set(kAddressCounted, true);
    await consume(byAddress, contextValues.get(kClientAddress), () => options.onRefused?.("address"));
  };
  const interceptor: Interceptor = (next) => (req) => {
    if (!isPublicMethod(req.method)) return next(req);
    // A REST call was counted before its body was read: nothing is left to wait for.
    const begin = req.method === beginPurchase && !req.stream;
    if (!begin && req.contextValues.get(kAddressCounted)) return next(req);
    return limited(next, req, begin);
  };
  const limited = async (next: Next, req: Call, begin: boolean) => {
    await countAddress(req.contextValues);
    if (!begin) return next(req);
    const admission = await begins.admit({
      campaignKey: (req.message as { campaignKey?: string }).campaignKey ?? "",
      address: req.contextValues.get(kClientAddress),
    });
    try {
      return await next(req);
    } finally {
      admission.settle(req.contextValues.get(kTicketVerdict));
    }
  };
  return {
    interceptor,
    /** For the authentication interceptor and the payment webhook. */
    failedAuth,
    /**
     * For REST: counts a public call against its client address before its body is read, and
     * refuses any other call from an address whose failed authentications are spent (spec 8).
     * The interceptor then does not count a public call again.
     */
    admitBeforeBody: async ({
      route,
      contextValues,
    }: {
      route: { method: DescMethod };
      contextValues: ContextValues;
    }) => {
      if (isPublicMethod(route.method)) await countAddress(contextValues);
      else await failedAuth.refuseIfSpent(contextValues.get(kClientAddress));
    },
    /** The public funding page's (src/fund/): each request counts as a public call, a purchase also as a begin. */
    fund: {
      request: (address) => consume(byAddress, address, () => options.onRefused?.("address")),
      begin: (call) => begins.admit(call),
    } satisfies FundLimits,
    /** Where the counters are kept now (the readiness detail and metrics read it). */
    status: (): RateLimitStatus => (redis ? { store: "redis", redis: redisState } : { store: "memory" }),
    close: async () => {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** One `/readyz` line. */
export function describeRateLimitStatus(status: RateLimitStatus): string {
  if (status.store === "memory") return "rate limits: in memory (no REDIS_URL)";
  if (status.redis === "ready") return "rate limits: redis";
  return `rate limits: redis ${status.redis}, counting in memory meanwhile`;
}

async function consume(limiter: RateLimiterAbstract, key: string, onRefused: () => void): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      onRefused();
      throw rateLimited();
    }
    throw rejection;
  }
}

// The Redis client is loaded only with REDIS_URL: without it (one replica, `npm start`) its
// files were loaded for nothing at every start (docs/performance.md). Synchronous, like
// createRateLimit.
const load = createRequire(import.meta.url);
function loadRedis(): typeof import("ioredis").Redis {
  return (load("ioredis") as typeof import("ioredis")).Redis;
}
