import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { createListener, type Listener } from "./server/listener.js";
import { createMetricsListener } from "./server/metrics-listener.js";
import { databaseFailure } from "./startup/database-failure.js";
import { listenerFailure } from "./startup/listener-failure.js";
import { StartupFailure } from "./startup/startup-failure.js";
import { describeFailure, runStopSteps } from "./startup/stop-steps.js";
import { lockDataDir } from "./store/data-dir-lock.js";
import { loadOrCreateLocalSecrets } from "./store/local-secrets.js";
import { migrate } from "./store/migrate.js";
import { openDatabase } from "./store/open-database.js";

const MIGRATIONS_DIR = fileURLToPath(new URL("../prisma/migrations", import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);

  let { masterKey, operatorToken } = config;
  if (config.database.kind === "pglite") {
    // Before anything in DATA_DIR is read or written: one service per embedded database.
    await lockDataDir(config.dataDir, {
      onCompromised: (error) => {
        logger.fatal({ dataDir: config.dataDir, error: error.message }, "DATA_DIR lock lost; stopping");
        process.exit(1);
      },
    });
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
  }).catch((error: unknown) => {
    throw databaseFailure(error, config.database);
  });
  try {
    const sql = await database.openSqlRunner();
    try {
      const { applied } = await migrate(sql, MIGRATIONS_DIR);
      if (applied.length > 0) logger.info({ applied }, "migrations applied");
    } finally {
      await sql.close();
    }
  } catch (error) {
    await database.close().catch(() => {});
    throw databaseFailure(error, config.database);
  }

  const app = createApp({
    config,
    database,
    logger,
    secrets: { masterKey, previousMasterKey: config.previousMasterKey, operatorToken },
  });
  let address: AddressInfo;
  let listener: Listener;
  try {
    listener = createListener({ handler: app.handler, tls: config.tls, connections: config.connections });
    address = await listener.listen(config.port, config.host);
  } catch (error) {
    await app.stop();
    await database.close();
    throw listenerFailure(error, config);
  }
  const scheme = config.tls ? "https" : "http";
  logger.info({ url: `${scheme}://${address.address}:${address.port}`, database: database.kind }, "listening");
  // Prometheus on its own port (docs/deploy.md), so the game-facing port never exposes it.
  const metricsListener = config.metrics
    ? createMetricsListener({
        metrics: app.metrics,
        onError: (error) => logger.error({ err: error }, "metrics scrape failed"),
      })
    : undefined;
  if (metricsListener && config.metrics) {
    const { port, host } = config.metrics;
    const at = await metricsListener.listen(port, host).catch((error: NodeJS.ErrnoException) => {
      const why = error.code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${error.message})`;
      throw new StartupFailure(`METRICS_PORT ${port} on METRICS_HOST ${host} ${why}; choose another port, or off`);
    });
    logger.info({ url: `http://${at.address}:${at.port}/metrics` }, "metrics listening");
  }
  app.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const deadline = setTimeout(() => {
      logger.error("shutdown deadline passed; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    app.beginShutdown();
    // Each step runs whatever failed before it, so the database is always closed; the exit code
    // says whether the drain of calls in flight finished.
    const failed = await runStopSteps(
      [
        { name: "listener", run: () => listener.close() },
        { name: "metrics listener", run: () => metricsListener?.close() },
        { name: "app", run: () => app.stop() },
        { name: "database", run: () => database.close() },
      ],
      (step, error) => logger.warn({ step, error: describeFailure(error) }, "shutdown step failed; stopping the rest"),
    );
    logger.info("stopped");
    process.exit(failed.includes("listener") ? 1 : 0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupFailure) {
    process.stderr.write(`${error instanceof StartupFailure ? "start-up failed: " : ""}${error.message}\n`);
  } else {
    process.stderr.write(`start-up failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
