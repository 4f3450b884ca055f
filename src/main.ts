import cluster from "node:cluster";
import { totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { WORKER_SLOT_ENV } from "./startup/cluster-messages.js";
import { StartupFailure } from "./startup/startup-failure.js";
import { smallYoungGeneration } from "./startup/young-generation.js";

const MIGRATIONS_DIR = fileURLToPath(new URL("../prisma/migrations", import.meta.url));
const SERVICE_FILES = {
  migrationsDir: MIGRATIONS_DIR,
  embeddedDatabaseImage: fileURLToPath(new URL("../pglite/initdb.tar.gz", import.meta.url)),
};

// The service (serve.ts) and the WORKERS primary (cluster-primary.ts) are loaded on demand: the
// primary only hands connections on, and loads neither the service's code nor Prisma's client.
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  if (cluster.isWorker) {
    // The primary migrated the database and owns the port.
    const slot = Number(process.env[WORKER_SLOT_ENV]);
    const { serve } = await import("./serve.js");
    await serve(config, createLogger(config.logLevel).child({ worker: slot }), "worker", SERVICE_FILES);
    return;
  }
  const logger = createLogger(config.logLevel);
  // Workers inherit the primary's node options: one warning for all of them.
  const small = smallYoungGeneration({
    totalBytes: totalmem(),
    constrainedBytes: process.constrainedMemory?.() ?? 0,
    execArgv: process.execArgv,
    nodeOptions: process.env.NODE_OPTIONS,
  });
  if (small) logger.warn({ memoryMb: small.memoryMb }, small.message);
  if (config.workers > 1) {
    const { runClusterPrimary } = await import("./startup/cluster-primary.js");
    await runClusterPrimary(config, logger, MIGRATIONS_DIR);
    return;
  }
  const { serve } = await import("./serve.js");
  await serve(config, logger, "alone", SERVICE_FILES);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupFailure) {
    process.stderr.write(`${error instanceof StartupFailure ? "start-up failed: " : ""}${error.message}\n`);
  } else {
    process.stderr.write(`start-up failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
