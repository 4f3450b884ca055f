import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import type { WebhookAddressKind } from "./domain/webhook-address.js";

// A port is a whole number from 0 to 65535 (0: any free port); "abc" reads as that, not as NaN.
const NOT_A_PORT = "must be a port number from 0 to 65535";
const port = z.coerce.number({ error: NOT_A_PORT }).int(NOT_A_PORT).min(0, NOT_A_PORT).max(65535, NOT_A_PORT);
const url = z.url();
// Counts, intervals and timeouts: a whole number above zero, read from the variable's text.
const positive = z.coerce.number().int().positive();
// Whole numbers within bounds (percentages, retention days).
const whole = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const optionalText = z.string().min(1).optional();
const MAKE_A_KEY = "openssl rand -base64 32";
const is32Bytes = (value: string) => Buffer.from(value, "base64").length === 32;
const masterKey = z.string().refine(is32Bytes, `must be 32 bytes, base64 (make one with: ${MAKE_A_KEY})`);
const previousMasterKey = z.string().refine(is32Bytes, "must be 32 bytes, base64");

/** A name server as dns.Resolver's setServers takes it: an address, with a port or without. */
function isNameServer(server: string): boolean {
  const withPort = /^\[(.+)\]:\d{1,5}$/.exec(server) ?? /^([\d.]+):\d{1,5}$/.exec(server);
  return isIP(withPort?.[1] ?? server) !== 0;
}

/**
 * An absolute http(s) origin: scheme, host and port, nothing after (a lone "/" is allowed), no
 * user name or password. The campaign's public page and the addresses the platform sends the
 * browser back to are built on it, so a path or query here would end up inside them.
 */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value) || /[?#]/.test(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    url.username === "" &&
    url.password === "" &&
    url.pathname === "/"
  );
}

/** An IP address, or a CIDR range of them (`10.0.0.0/8`). */
function isAddressOrRange(entry: string): boolean {
  const [address = "", bits, more] = entry.split("/");
  return isIP(address) !== 0 && more === undefined && (bits === undefined || ipaddr.isValidCIDR(entry));
}

// A required setting is named even when another one is also wrong: these checks read only
// whether a variable is present, which holds whatever else failed to parse.
const requiredWithDatabase = (name: string) => ({
  message: `is required when DATABASE_URL is set (make one with: ${MAKE_A_KEY})`,
  path: [name],
  when: () => true,
});

// What each setting means, and its default: docs/configuration.md.
const schema = z
  .object({
    PORT: port.default(8080),
    HOST: z.string().min(1).default("127.0.0.1"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
      .optional(),
    // Off behind a pooler that cannot keep prepared statements (PgBouncer transaction mode).
    DATABASE_PREPARED_STATEMENTS: z.enum(["on", "off"]).default("on"),
    DATA_DIR: z.string().min(1).default("./.data"),
    // Pages and the platform's return addresses are built on it, never on a request's Host.
    PUBLIC_URL: z
      .string()
      .refine(
        isOrigin,
        "must be an absolute http(s) URL without path, query or fragment (e.g. https://fund.example.com)",
      )
      .optional(),
    STEAM_API_URL: url.default("https://partner.steam-api.com"),
    STEAM_STORE_URL: url.default("https://store.steampowered.com"),
    // Steam's OpenID 2.0 provider, where players sign in to fund from the web (reference 11).
    STEAM_OPENID_URL: z.url({ protocol: /^https?$/ }).default("https://steamcommunity.com/openid/login"),
    STEAM_TIMEOUT_MS: positive.default(5000),
    ENCORE_MASTER_KEY: masterKey.optional(),
    // Master key rotation (docs/deploy.md): opens and verifies, never seals or signs.
    ENCORE_MASTER_KEY_PREVIOUS: previousMasterKey.optional(),
    OPERATOR_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
    PAYMENT_WEBHOOK_SECRET: z.string().min(24, "must be at least 24 characters").optional(),
    ERROR_DOMAIN: z.string().min(1).default("campaign.encore.v1"),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// URL")
      .optional(),
    TLS_CERT_FILE: optionalText,
    TLS_KEY_FILE: optionalText,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    STOREFRONT_SHARE_PERCENT: whole(0, 99).default(30),
    PUBLIC_READ_CACHE_MS: whole(0, 60_000).default(1000),
    // Spec 3.2.
    VERIFICATION_INTERVAL_MS: positive.default(30_000),
    // Spec 3.1, DESIGN 3: approved orders are settled within settle-after + interval (default
    // 90 s: "within a couple of minutes").
    SETTLEMENT_SWEEP_INTERVAL_MS: positive.default(30_000),
    SETTLEMENT_SETTLE_AFTER_MS: positive.default(60_000),
    SETTLEMENT_CANCEL_AFTER_MS: positive.default(15 * 60_000),
    // Valve asks for a report read at least once a day and accepts one a minute.
    RECONCILIATION_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(60_000)
      .default(10 * 60_000),
    REVERSAL_RATE_WINDOW_DAYS: whole(1, 365).default(30),
    REVERSAL_FLAG_RATE_PERCENT: whole(1, 100).default(5),
    // Rate limits: spec 8, docs/abuse-limits.md.
    RATE_LIMIT_WINDOW_SECONDS: positive.default(60),
    RATE_LIMIT_PER_ADDRESS: positive.default(600),
    RATE_LIMIT_BEGIN_PER_CAMPAIGN: positive.default(600),
    RATE_LIMIT_FAILED_TICKETS_PER_ADDRESS: positive.default(10),
    RATE_LIMIT_FAILED_TICKETS_PER_CAMPAIGN: positive.default(60),
    RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: positive
      .max(1_000_000, "must be at most 1000000 (an audit event's count is a 32-bit integer)")
      .default(30),
    // Slow and idle clients (connection-guard.ts).
    HTTP_HEADERS_TIMEOUT_MS: positive.default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: positive.default(30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: positive.default(5_000),
    HTTP2_IDLE_TIMEOUT_MS: positive.default(60_000),
    HTTP_SEND_TIMEOUT_MS: positive.default(30_000),
    // Whatever stops the process must wait longer (docs/deploy.md).
    SHUTDOWN_TIMEOUT_MS: positive.default(25_000),
    // docs/deploy.md "Replicas".
    PROXY_PROTOCOL_FROM: z
      .string()
      .refine((list) => list.split(",").every(isAddressOrRange), "must list addresses or CIDR ranges (comma separated)")
      .optional(),
    MAX_CONNECTIONS: positive.default(2_000),
    MAX_CONNECTIONS_PER_ADDRESS: positive.default(100),
    // Never on the game-facing port: the series are for the operator's scraper only.
    METRICS_PORT: z
      .union([z.literal("off"), port], { error: "must be a port number from 0 to 65535, or off" })
      .optional(),
    METRICS_HOST: z.string().min(1).optional(),
    OTEL_EXPORTER_OTLP_ENDPOINT: url.optional(),
    OTEL_SERVICE_NAME: z.string().min(1).default("encore-campaigns"),
    // Webhooks: docs/webhooks.md.
    WEBHOOK_ALLOW_HTTP: z.enum(["true", "false"]).default("false"),
    WEBHOOK_ALLOW_ADDRESSES: z
      .string()
      .regex(
        /^((loopback|private|link-local)(,(loopback|private|link-local))*)?$/,
        "must list loopback, private, link-local",
      )
      .default(""),
    WEBHOOK_DNS_SERVERS: z
      .string()
      .refine(
        (list) => list.split(",").every(isNameServer),
        "must list name servers by address (ip, ipv4:port or [ipv6]:port, comma separated)",
      )
      .optional(),
    WEBHOOK_TIMEOUT_MS: positive.max(60_000).default(10_000),
    WEBHOOK_DELIVERY_INTERVAL_MS: positive.default(1_000),
    WEBHOOK_RETRY_BASE_MS: positive.default(30_000),
    WEBHOOK_RETRY_MAX_MS: positive.default(6 * 60 * 60_000),
    WEBHOOK_RETRY_WINDOW_MS: positive.default(3 * 24 * 60 * 60_000),
    WEBHOOK_DISABLE_AFTER_MS: positive.default(3 * 24 * 60 * 60_000),
    WEBHOOK_DELIVERY_CONCURRENCY: positive.max(1_000).default(32),
    WEBHOOK_ENDPOINT_CONCURRENCY: positive.default(4),
    WEBHOOK_ACCOUNT_CONCURRENCY: positive.default(8),
    WEBHOOK_ENDPOINTS_PER_ACCOUNT: positive.max(1_000).default(16),
    WEBHOOK_REDELIVERIES_PER_HOUR: positive.default(100),
    WEBHOOK_RETENTION_DAYS: whole(1, 36_500).default(30),
    AUDIT_RETENTION_DAYS: whole(1, 36_500).default(400),
  })
  .refine((env) => !env.DATABASE_URL || env.ENCORE_MASTER_KEY, requiredWithDatabase("ENCORE_MASTER_KEY"))
  .refine(
    (env) =>
      !env.ENCORE_MASTER_KEY_PREVIOUS ||
      !env.ENCORE_MASTER_KEY ||
      !Buffer.from(env.ENCORE_MASTER_KEY_PREVIOUS, "base64").equals(Buffer.from(env.ENCORE_MASTER_KEY, "base64")),
    { message: "must differ from ENCORE_MASTER_KEY", path: ["ENCORE_MASTER_KEY_PREVIOUS"] },
  )
  .refine((env) => !env.DATABASE_URL || env.OPERATOR_TOKEN, requiredWithDatabase("OPERATOR_TOKEN"))
  // The sweeper must never look at a purchase whose InitTxn may still be under way.
  .refine((env) => env.SETTLEMENT_SETTLE_AFTER_MS > 2 * env.STEAM_TIMEOUT_MS, {
    message: "must be more than twice STEAM_TIMEOUT_MS",
    path: ["SETTLEMENT_SETTLE_AFTER_MS"],
  })
  .refine((env) => env.MAX_CONNECTIONS_PER_ADDRESS <= env.MAX_CONNECTIONS, {
    message: "must be at most MAX_CONNECTIONS",
    path: ["MAX_CONNECTIONS_PER_ADDRESS"],
  })
  .refine((env) => Boolean(env.TLS_CERT_FILE) === Boolean(env.TLS_KEY_FILE), {
    message: "TLS_CERT_FILE and TLS_KEY_FILE go together",
    path: ["TLS_CERT_FILE"],
  })
  // docs/webhooks.md "Fairness": one account never holds every attempt slot of a replica.
  .refine((env) => env.WEBHOOK_ACCOUNT_CONCURRENCY < env.WEBHOOK_DELIVERY_CONCURRENCY, {
    message: "must be less than WEBHOOK_DELIVERY_CONCURRENCY, so one account never holds every delivery slot",
    path: ["WEBHOOK_ACCOUNT_CONCURRENCY"],
  })
  .refine((env) => env.WEBHOOK_ENDPOINT_CONCURRENCY <= env.WEBHOOK_ACCOUNT_CONCURRENCY, {
    message: "must be at most WEBHOOK_ACCOUNT_CONCURRENCY",
    path: ["WEBHOOK_ENDPOINT_CONCURRENCY"],
  });

export type Env = z.infer<typeof schema>;

/** The typed, frozen settings, derived from what loadConfig builds. */
export type Config = ReturnType<typeof toConfig>;
/** Spec 8's rate limits, each as calls per window. */
export type RateLimitSettings = Config["rateLimit"];
/** Webhook endpoints and their deliveries (docs/webhooks.md). */
export type WebhookConfig = Config["webhooks"];

export class ConfigError extends Error {}

/**
 * Parses the environment once into a frozen Config. Every bad or missing setting is named in one
 * line, so a start-up names them all at once rather than one run at a time.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Readonly<Config> {
  const parsed = schema.safeParse(setOnly(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${[...new Set(problems)].join("; ")}`);
  }
  return Object.freeze(toConfig(parsed.data));
}

function toConfig(e: Env) {
  return {
    port: e.PORT,
    host: e.HOST,
    /** No trailing slash: the campaign's public page is `{publicUrl}/fund/{campaign_key}`. */
    publicUrl: e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : `http://localhost:${e.PORT}`,
    database: e.DATABASE_URL
      ? { kind: "postgres" as const, url: e.DATABASE_URL, preparedStatements: e.DATABASE_PREPARED_STATEMENTS === "on" }
      : { kind: "pglite" as const, dataDir: e.DATA_DIR },
    dataDir: e.DATA_DIR,
    steam: {
      apiUrl: e.STEAM_API_URL,
      storeUrl: e.STEAM_STORE_URL,
      openIdUrl: e.STEAM_OPENID_URL,
      timeoutMs: e.STEAM_TIMEOUT_MS,
    },
    /** Unset only with PGlite, where start-up generates and keeps them in DATA_DIR. */
    masterKey: keyBytes(e.ENCORE_MASTER_KEY),
    previousMasterKey: keyBytes(e.ENCORE_MASTER_KEY_PREVIOUS),
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
    reconciliationIntervalMs: e.RECONCILIATION_INTERVAL_MS,
    reversalFlag: { windowDays: e.REVERSAL_RATE_WINDOW_DAYS, ratePercent: e.REVERSAL_FLAG_RATE_PERCENT },
    rateLimit: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      perAddress: e.RATE_LIMIT_PER_ADDRESS,
      beginPerCampaign: e.RATE_LIMIT_BEGIN_PER_CAMPAIGN,
      failedTicketsPerAddress: e.RATE_LIMIT_FAILED_TICKETS_PER_ADDRESS,
      failedTicketsPerCampaign: e.RATE_LIMIT_FAILED_TICKETS_PER_CAMPAIGN,
      failedAuthPerAddress: e.RATE_LIMIT_FAILED_AUTH_PER_ADDRESS,
    },
    connections: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      http2IdleTimeoutMs: e.HTTP2_IDLE_TIMEOUT_MS,
      sendTimeoutMs: e.HTTP_SEND_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    proxyProtocolFrom: e.PROXY_PROTOCOL_FROM?.split(",") ?? [],
    metrics: metricsListener(e),
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME }
      : undefined,
    webhooks: {
      allowHttp: e.WEBHOOK_ALLOW_HTTP === "true",
      allowAddresses: new Set(
        e.WEBHOOK_ALLOW_ADDRESSES === "" ? [] : (e.WEBHOOK_ALLOW_ADDRESSES.split(",") as WebhookAddressKind[]),
      ),
      dnsServers: e.WEBHOOK_DNS_SERVERS?.split(","),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      deliveryIntervalMs: e.WEBHOOK_DELIVERY_INTERVAL_MS,
      retry: { baseMs: e.WEBHOOK_RETRY_BASE_MS, maxMs: e.WEBHOOK_RETRY_MAX_MS, windowMs: e.WEBHOOK_RETRY_WINDOW_MS },
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_MS,
      retentionDays: e.WEBHOOK_RETENTION_DAYS,
      concurrency: {
        replica: e.WEBHOOK_DELIVERY_CONCURRENCY,
        endpoint: e.WEBHOOK_ENDPOINT_CONCURRENCY,
        account: e.WEBHOOK_ACCOUNT_CONCURRENCY,
      },
      endpointsPerAccount: e.WEBHOOK_ENDPOINTS_PER_ACCOUNT,
      redeliveriesPerHour: e.WEBHOOK_REDELIVERIES_PER_HOUR,
    },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
  };
}

/** METRICS_PORT unset: 9464 with DATABASE_URL, none with the embedded database (a local run). */
function metricsListener(e: Env) {
  const port = e.METRICS_PORT ?? (e.DATABASE_URL ? 9464 : "off");
  return port === "off" ? undefined : { port, host: e.METRICS_HOST ?? e.HOST };
}

function keyBytes(base64: string | undefined): Buffer | undefined {
  return base64 ? Buffer.from(base64, "base64") : undefined;
}

/** An empty variable (`PORT=`) counts as unset, as a shell user means it, never as zero. */
function setOnly(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
}
