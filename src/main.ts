import { totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { serve } from "./serve.js";
import { StartupFailure } from "./startup/startup-failure.js";
import { smallYoungGeneration } from "./startup/young-generation.js";

const SERVICE_FILES = {
  migrationsDir: fileURLToPath(new URL("../prisma/migrations", import.meta.url)),
  embeddedDatabaseImage: fileURLToPath(new URL("../pglite/initdb.tar.gz", import.meta.url)),
};

// One process per container: more throughput is more replicas (DESIGN 3 "Scale", docs/deploy.md
// "Replicas").
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const small = smallYoungGeneration({
    totalBytes: totalmem(),
    constrainedBytes: process.constrainedMemory?.() ?? 0,
    execArgv: process.execArgv,
    nodeOptions: process.env.NODE_OPTIONS,
  });
  if (small) logger.warn({ memoryMb: small.memoryMb }, small.message);
  await serve(config, logger, SERVICE_FILES);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupFailure) {
    process.stderr.write(`${error instanceof StartupFailure ? "start-up failed: " : ""}${error.message}\n`);
  } else {
    process.stderr.write(`start-up failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
