import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65535);
const url = z.url();
const optionalText = z.string().min(1).optional();

const schema = z
  .object({
    PORT: port.default(8080),
    HOST: z.string().min(1).default("127.0.0.1"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
      .optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    STEAM_API_URL: url.default("https://partner.steam-api.com"),
    STEAM_STORE_URL: url.default("https://store.steampowered.com"),
    STEAM_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    ENCORE_MASTER_KEY: z
      .string()
      .refine((value) => Buffer.from(value, "base64").length === 32, "must be 32 bytes, base64")
      .optional(),
    OPERATOR_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
    // Shared with the payment provider; unset: derived from the master key (payment-signature.ts).
    PAYMENT_WEBHOOK_SECRET: z.string().min(24, "must be at least 24 characters").optional(),
    ERROR_DOMAIN: z.string().min(1).default("campaign.encore.v1"),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// URL")
      .optional(),
    TLS_CERT_FILE: optionalText,
    TLS_KEY_FILE: optionalText,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    STOREFRONT_SHARE_PERCENT: z.coerce.number().int().min(0).max(99).default(30),
    // How long funding:get and offers:list answer a campaign key from the same read (0: never).
    PUBLIC_READ_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    // Campaign verification (spec 3.2): time between passes over campaigns in VERIFYING; a
    // create or retry in this process also starts one at once.
    VERIFICATION_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
    // Settlement sweeper (spec 3.1, DESIGN 3): how often it sweeps; how long after begin a
    // purchase nobody completed is settled by it (also how long before it looks at one again);
    // how long an unapproved order stays open before it is cancelled. Approved orders are thus
    // settled within settle-after + interval (default 90 s: "within a couple of minutes").
    SETTLEMENT_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
    SETTLEMENT_SETTLE_AFTER_MS: z.coerce.number().int().positive().default(60_000),
    SETTLEMENT_CANCEL_AFTER_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60_000),
    // Rate limits (spec 8): per client socket address over every public call, and per campaign
    // key over purchases:begin, each as requests per window.
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
    RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(600),
    RATE_LIMIT_BEGIN_PER_CAMPAIGN: z.coerce.number().int().positive().default(600),
  })
  .refine((env) => !env.DATABASE_URL || env.ENCORE_MASTER_KEY, {
    message: "is required when DATABASE_URL is set",
    path: ["ENCORE_MASTER_KEY"],
  })
  .refine((env) => !env.DATABASE_URL || env.OPERATOR_TOKEN, {
    message: "is required when DATABASE_URL is set",
    path: ["OPERATOR_TOKEN"],
  })
  // The sweeper must never look at a purchase whose InitTxn may still be under way.
  .refine((env) => env.SETTLEMENT_SETTLE_AFTER_MS > 2 * env.STEAM_TIMEOUT_MS, {
    message: "must be more than twice STEAM_TIMEOUT_MS",
    path: ["SETTLEMENT_SETTLE_AFTER_MS"],
  })
  .refine((env) => Boolean(env.TLS_CERT_FILE) === Boolean(env.TLS_KEY_FILE), {
    message: "TLS_CERT_FILE and TLS_KEY_FILE go together",
    path: ["TLS_CERT_FILE"],
  });

export type Env = z.infer<typeof schema>;

export interface Config {
  port: number;
  host: string;
  database: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };
  dataDir: string;
  steam: { apiUrl: string; storeUrl: string; timeoutMs: number };
  /** Unset only with PGlite, where start-up generates and keeps them in DATA_DIR. */
  masterKey: Buffer | undefined;
  operatorToken: string | undefined;
  /** Signs the payment provider's webhook notifications; unset: derived from the master key. */
  paymentWebhookSecret: string | undefined;
  errorDomain: string;
  redisUrl: string | undefined;
  tls: { certFile: string; keyFile: string } | undefined;
  logLevel: Env["LOG_LEVEL"];
  storefrontSharePercent: number;
  publicReadCacheMs: number;
  verificationIntervalMs: number;
  settlement: { intervalMs: number; settleAfterMs: number; cancelAfterMs: number };
  rateLimit: { windowSeconds: number; perAddress: number; beginPerCampaign: number };
}

export class ConfigError extends Error {}

/** Parses the environment once into a frozen Config; a bad value is one clear line. */
export function loadConfig(env: NodeJS.ProcessEnv): Readonly<Config> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join(".") || "environment";
    throw new ConfigError(`invalid configuration: ${name} ${issue?.message ?? "is invalid"}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: "postgres" as const, url: e.DATABASE_URL }
      : { kind: "pglite" as const, dataDir: e.DATA_DIR },
    dataDir: e.DATA_DIR,
    steam: { apiUrl: e.STEAM_API_URL, storeUrl: e.STEAM_STORE_URL, timeoutMs: e.STEAM_TIMEOUT_MS },
    masterKey: e.ENCORE_MASTER_KEY ? Buffer.from(e.ENCORE_MASTER_KEY, "base64") : undefined,
    operatorToken: e.OPERATOR_TOKEN,
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET,
    errorDomain: e.ERROR_DOMAIN,
    redisUrl: e.REDIS_URL,
    tls: e.TLS_CERT_FILE && e.TLS_KEY_FILE ? { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE } : undefined,
    logLevel: e.LOG_LEVEL,
    storefrontSharePercent: e.STOREFRONT_SHARE_PERCENT,
    publicReadCacheMs: e.PUBLIC_READ_CACHE_MS,
    verificationIntervalMs: e.VERIFICATION_INTERVAL_MS,
    settlement: {
      intervalMs: e.SETTLEMENT_SWEEP_INTERVAL_MS,
      settleAfterMs: e.SETTLEMENT_SETTLE_AFTER_MS,
      cancelAfterMs: e.SETTLEMENT_CANCEL_AFTER_MS,
    },
    rateLimit: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      perAddress: e.RATE_LIMIT_PER_ADDRESS,
      beginPerCampaign: e.RATE_LIMIT_BEGIN_PER_CAMPAIGN,
    },
  });
}
