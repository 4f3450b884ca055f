import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65535);
const url = z.url();
const optionalText = z.string().min(1).optional();

const schema = z
  .object({
    PORT: port.default(8080),
    HOST: z.string().min(1).default("127.0.0.1"),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL").optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    STEAM_API_URL: url.default("https://partner.steam-api.com"),
    STEAM_STORE_URL: url.default("https://store.steampowered.com"),
    STEAM_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    ENCORE_MASTER_KEY: z
      .string()
      .refine((value) => Buffer.from(value, "base64").length === 32, "must be 32 bytes, base64")
      .optional(),
    OPERATOR_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
    ERROR_DOMAIN: z.string().min(1).default("campaign.encore.v1"),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL").optional(),
    TLS_CERT_FILE: optionalText,
    TLS_KEY_FILE: optionalText,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    STOREFRONT_SHARE_PERCENT: z.coerce.number().int().min(0).max(99).default(30),
  })
  .refine((env) => !env.DATABASE_URL || env.ENCORE_MASTER_KEY, {
    message: "is required when DATABASE_URL is set",
    path: ["ENCORE_MASTER_KEY"],
  })
  .refine((env) => !env.DATABASE_URL || env.OPERATOR_TOKEN, {
    message: "is required when DATABASE_URL is set",
    path: ["OPERATOR_TOKEN"],
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
  errorDomain: string;
  redisUrl: string | undefined;
  tls: { certFile: string; keyFile: string } | undefined;
  logLevel: Env["LOG_LEVEL"];
  storefrontSharePercent: number;
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
    errorDomain: e.ERROR_DOMAIN,
    redisUrl: e.REDIS_URL,
    tls: e.TLS_CERT_FILE && e.TLS_KEY_FILE ? { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE } : undefined,
    logLevel: e.LOG_LEVEL,
    storefrontSharePercent: e.STOREFRONT_SHARE_PERCENT,
  });
}
