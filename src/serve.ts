import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { type App, createApp } from "./app.js";
import { type Config, ConfigError } from "./config.js";
import { createListener, type Listener } from "./server/listener.js";
import { createMetricsListener, type MetricsListener } from "./server/metrics-listener.js";
import { databaseFailure } from "./startup/database-failure.js";
import { listenerFailure } from "./startup/listener-failure.js";
import { StartupFailure } from "./startup/startup-failure.js";
import { runStopSteps } from "./startup/stop-steps.js";
import { lockDataDir } from "./store/data-dir-lock.js";
import { loadOrCreateLocalSecrets } from "./store/local-secrets.js";
import { migrate } from "./store/migrate.js";
import { type Database, openDatabase } from "./store/open-database.js";

/** What the service reads from the build beside it (main.ts finds them). */
export interface ServiceFiles {
  migrationsDir: string;
  /** The embedded database's first image (scripts/build.mjs makes it). */
  embeddedDatabaseImage: string;
}

/** The service in this process: migrates, listens and serves until SIGTERM or SIGINT. */
export async function serve(config: Readonly<Config>, logger: Logger, files: ServiceFiles): Promise<void> {
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

  const target =
    config.database.kind === "pglite"
      ? { ...config.database, firstImage: files.embeddedDatabaseImage }
      : config.database;
  const database = await openDatabase(target, {
    onIdleConnectionError: (error) => logger.warn({ err: error }, "idle database connection lost"),
  }).catch((error: unknown) => {
    throw databaseFailure(error, config.database);
  });
  await migrateOpen(database, files.migrationsDir, logger).catch(async (error: unknown) => {
    await database.close().catch(() => {});
    throw databaseFailure(error, config.database);
  });

  const app = createApp({
    config,
    database,
    logger,
    secrets: { masterKey, previousMasterKey: config.previousMasterKey, operatorToken },
  });
  let listener: Listener;
  let metricsListener: MetricsListener | undefined;
  let address: AddressInfo;
  try {
    listener = createListener({
      handler: app.handler,
      tls: config.tls,
      connections: config.connections,
      clientAddresses: app.clientAddresses,
    });
    ({ address, metricsListener } = await listenBoth(config, logger, listener, app));
  } catch (error) {
    await app.stop();
    await database.close();
    throw error instanceof StartupFailure ? error : listenerFailure(error, config);
  }
  app.start();
  // Said only once every listener is up: a start-up failure is always the last line printed.
  const url = `${config.tls ? "https" : "http"}://${address.address}:${address.port}`;
  logger.info({ url, database: database.kind }, "listening");

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
      logger,
    );
    logger.info("stopped");
    process.exit(failed.includes("listener") ? 1 : 0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/**
 * Listens on PORT, then Prometheus on METRICS_PORT (docs/deploy.md), never on the game-facing
 * port; no metrics listener with METRICS_PORT=off. A port that cannot be listened on stops
 * start-up with one line naming it.
 */
async function listenBoth(
  config: Readonly<Config>,
  logger: Logger,
  listener: Listener,
  app: App,
): Promise<{ address: AddressInfo; metricsListener: MetricsListener | undefined }> {
  const address = await listener.listen(config.port, config.host).catch((error: unknown) => {
    throw listenerFailure(error, config);
  });
  if (!config.metrics) return { address, metricsListener: undefined };
  const { port, host } = config.metrics;
  const metricsListener = createMetricsListener({
    metrics: app.metrics,
    onError: (error) => logger.error({ err: error }, "metrics scrape failed"),
  });
  try {
    const at = await metricsListener.listen(port, host).catch((error: NodeJS.ErrnoException) => {
      const why = error.code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${error.message})`;
      throw new StartupFailure(`METRICS_PORT ${port} on METRICS_HOST ${host} ${why}; choose another port, or off`);
    });
    logger.info({ url: `http://${at.address}:${at.port}/metrics` }, "metrics listening");
    return { address, metricsListener };
  } catch (error) {
    await listener.close();
    throw error;
  }
}

async function migrateOpen(database: Database, migrationsDir: string, logger: Logger): Promise<void> {
  const sql = await database.openSqlRunner();
  try {
    const { applied } = await migrate(sql, migrationsDir);
    if (applied.length > 0) logger.info({ applied }, "migrations applied");
  } finally {
    await sql.close();
  }
}
