import { fileURLToPath } from "node:url";
import { createApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { createListener } from "./server/listener.js";
import { loadOrCreateLocalSecrets } from "./store/local-secrets.js";
import { migrate } from "./store/migrate.js";
import { openDatabase } from "./store/open-database.js";

const MIGRATIONS_DIR = fileURLToPath(new URL("../prisma/migrations", import.meta.url));
const SHUTDOWN_DEADLINE_MS = 25_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);

  let { masterKey, operatorToken } = config;
  if (config.database.kind === "pglite") {
    const local = loadOrCreateLocalSecrets(config.dataDir);
    masterKey ??= local.masterKey;
    operatorToken ??= local.operatorToken;
    if (local.created) {
      // Shown once, on the terminal of whoever ran `npm start` for the first time.
      process.stdout.write(`Operator token (kept in ${config.dataDir}/secrets.json): ${local.operatorToken}\n`);
    }
  }
  if (!masterKey || !operatorToken) throw new ConfigError("invalid configuration: secrets are missing");

  const database = await openDatabase(config.database, {
    onIdleConnectionError: (error) => logger.warn({ err: error }, "idle database connection lost"),
  });
  const sql = await database.openSqlRunner();
  try {
    const { applied } = await migrate(sql, MIGRATIONS_DIR);
    if (applied.length > 0) logger.info({ applied }, "migrations applied");
  } finally {
    await sql.close();
  }

  const app = createApp({ config, database, logger, secrets: { masterKey, operatorToken } });
  const listener = createListener({ handler: app.handler, tls: config.tls });
  const address = await listener.listen(config.port, config.host);
  const scheme = config.tls ? "https" : "http";
  logger.info({ url: `${scheme}://${address.address}:${address.port}`, database: database.kind }, "listening");
  app.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const deadline = setTimeout(() => {
      logger.error("shutdown deadline passed; exiting");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    await listener.close();
    await app.stop();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`start-up failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
