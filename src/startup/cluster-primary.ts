import cluster, { type Worker } from "node:cluster";
import net from "node:net";
import type { Logger } from "pino";
import { AggregatorRegistry, Counter, Gauge, Registry } from "prom-client";
import { RateLimiterClusterMaster } from "rate-limiter-flexible";
import type { Config } from "../config.js";
import { listenOn } from "../server/listen-on.js";
import { checkTlsFiles } from "../server/listener.js";
import { workerSlotOf } from "../server/worker-slot.js";
import { migrate } from "../store/migrate.js";
import { openPostgresSqlRunner } from "../store/postgres-sql-runner.js";
import type { SqlRunner } from "../store/sql-runner.js";
import { type HandedConnection, isWorkerReady, WORKER_SLOT_ENV } from "./cluster-messages.js";
import { databaseFailure } from "./database-failure.js";
import { listenerFailure } from "./listener-failure.js";
import { listenForMetrics } from "./metrics-on-port.js";
import { StartupFailure } from "./startup-failure.js";
import { workerExecArgv } from "./worker-exec-argv.js";

// A worker that dies once it served is replaced after this, and a replacement that does not start
// is tried again twice as late each time up to the maximum: a worker that dies at once every
// time (its database gone, say) must not turn the primary into a fork loop.
const RESPAWN_DELAY_MS = 1_000;
const MAX_RESPAWN_DELAY_MS = 30_000;

/**
 * WORKERS > 1 (docs/deploy.md "Workers"): this process owns the port and forks the workers that
 * serve it, one per core. It accepts each connection itself and hands it, unread, to the worker
 * its client address belongs to (workerSlotOf), so whatever the service counts per address stays
 * whole in one worker's memory. It serves nothing itself; it aggregates the workers' /metrics,
 * keeps the per-campaign rate-limit counters when there is no REDIS_URL, replaces a worker that
 * dies, and on SIGTERM lets every worker drain before it exits.
 *
 * It migrates the database first, once, not every worker; over a plain connection, so this
 * process never loads Prisma's client.
 */
export async function runClusterPrimary(
  config: Readonly<Config>,
  logger: Logger,
  migrationsDir: string,
): Promise<void> {
  await migrateOnce(config, migrationsDir, logger);
  // Before any worker asks for one of its counters.
  if (!config.redisUrl) new RateLimiterClusterMaster();
  const metrics = new AggregatorRegistry();
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv) });
  const slots: (Worker | undefined)[] = Array.from({ length: config.workers }, () => undefined);
  const ready = new Set<Worker>();
  let stopping = false;
  const own = primaryMetrics(() => ready.size);

  const front = net.createServer({ pauseOnConnect: true }, (socket) => {
    const worker = workerFor(socket.remoteAddress ?? "");
    if (!worker) {
      socket.destroy();
      return;
    }
    const message: HandedConnection = { type: "encore:connection" };
    // The handle goes to the worker; this process's copy is closed once it is sent.
    worker.send(message, socket, (error) => error && socket.destroy());
  });
  // The address's own worker; while it is being replaced, the next one that is up.
  const workerFor = (address: string): Worker | undefined => {
    const home = workerSlotOf(address, slots.length);
    for (let i = 0; i < slots.length; i++) {
      const worker = slots[(home + i) % slots.length];
      if (worker && ready.has(worker)) return worker;
    }
    return undefined;
  };

  const fork = (slot: number): Promise<void> => {
    const worker = cluster.fork({ [WORKER_SLOT_ENV]: String(slot) });
    slots[slot] = worker;
    return new Promise((resolve, reject) => {
      worker.on("message", (message: unknown) => {
        if (!isWorkerReady(message)) return;
        ready.add(worker);
        resolve();
      });
      worker.on("exit", (code, signal) => {
        const served = ready.delete(worker);
        if (slots[slot] === worker) slots[slot] = undefined;
        if (!served) {
          // Its own start-up failure is on stderr already, in its words.
          reject(new WorkerStartFailed(slot, code, signal));
          return;
        }
        if (stopping) return;
        logger.error({ worker: slot, code, signal }, "worker stopped unexpectedly; starting another");
        own.workerStopped.inc();
        respawn(slot, RESPAWN_DELAY_MS);
      });
    });
  };
  const respawn = (slot: number, delayMs: number) => {
    setTimeout(() => {
      if (stopping) return;
      fork(slot).catch((error: unknown) => {
        logger.error({ worker: slot, err: error }, "replacement worker did not start; trying again");
        respawn(slot, Math.min(2 * delayMs, MAX_RESPAWN_DELAY_MS));
      });
    }, delayMs).unref();
  };

  const stopWorkers = async () => {
    const exits = Object.values(cluster.workers ?? {}).map(
      (worker) =>
        new Promise<number | null>((resolve) => {
          if (!worker || worker.isDead()) return resolve(0);
          worker.once("exit", (code) => resolve(code));
          worker.process.kill("SIGTERM");
        }),
    );
    return (await Promise.all(exits)).every((code) => code === 0);
  };

  let address: net.AddressInfo;
  try {
    // A certificate that cannot be read is one line here, not one from every worker.
    if (config.tls) checkTlsFiles(config.tls);
    address = await listenOn(front, config.port, config.host);
  } catch (error) {
    throw listenerFailure(error, config);
  }
  // Past listen, an accept that fails (out of file descriptors) must not end the primary.
  front.on("error", (error) => logger.error({ err: error }, "accepting a connection failed"));
  try {
    await Promise.all(slots.map((_, slot) => fork(slot)));
  } catch (error) {
    stopping = true;
    front.close();
    await stopWorkers();
    throw error;
  }
  const scheme = config.tls ? "https" : "http";
  logger.info(
    { url: `${scheme}://${address.address}:${address.port}`, database: "postgres", workers: config.workers },
    "listening",
  );

  const metricsListener = await listenForMetrics(
    config.metrics,
    {
      // The workers' series aggregated, then the primary's own (no name in common).
      scrape: async () => `${await metrics.clusterMetrics()}\n${await own.registry.metrics()}`,
      contentType: metrics.contentType,
    },
    logger,
  );

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: config.workers }, "shutting down: workers finishing in-flight requests");
    // Each worker keeps its own deadline (SHUTDOWN_TIMEOUT_MS); this one only covers a worker
    // that does not exit after its own.
    const deadline = setTimeout(() => {
      logger.error("shutdown deadline passed; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    deadline.unref();
    front.close();
    const clean = await stopWorkers();
    await metricsListener?.close();
    logger.info("stopped");
    process.exit(clean ? 0 : 1);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/** The primary's own series, beside its workers' (docs/deploy.md, Metrics and alerts). */
function primaryMetrics(readyWorkers: () => number) {
  const registry = new Registry();
  const workerStopped = new Counter({
    name: "encore_worker_stopped_total",
    help: "Workers that stopped unexpectedly and were replaced (WORKERS > 1).",
    registers: [registry],
  });
  new Gauge({
    name: "encore_workers_ready",
    help: "Workers ready to be handed connections (WORKERS > 1).",
    registers: [registry],
    collect() {
      this.set(readyWorkers());
    },
  });
  return { registry, workerStopped };
}

async function migrateOnce(config: Readonly<Config>, migrationsDir: string, logger: Logger): Promise<void> {
  // WORKERS > 1 is refused at configuration without DATABASE_URL.
  if (config.database.kind !== "postgres") throw new StartupFailure("WORKERS needs DATABASE_URL");
  let sql: SqlRunner;
  try {
    sql = await openPostgresSqlRunner(config.database.url);
  } catch (error) {
    throw databaseFailure(error, config.database);
  }
  try {
    const { applied } = await migrate(sql, migrationsDir);
    if (applied.length > 0) logger.info({ applied }, "migrations applied");
  } catch (error) {
    throw databaseFailure(error, config.database);
  } finally {
    await sql.close().catch(() => {});
  }
}

/** A worker ended before it was ready: the service does not start. */
class WorkerStartFailed extends StartupFailure {
  constructor(slot: number, code: number | null, signal: string | null) {
    super(`worker ${slot} did not start (${signal ? `signal ${signal}` : `exit code ${code}`})`);
  }
}
