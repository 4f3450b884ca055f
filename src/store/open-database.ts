import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PrismaClient } from "../../gen/prisma/client.js";
import { type Listening, listenOn, type NotificationHandlers } from "./notifications.js";
import { openPostgresSqlRunner } from "./postgres-sql-runner.js";
import type { SqlRunner } from "./sql-runner.js";
import { statementNames } from "./statement-names.js";

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  /** A raw connection for migrations: one session, so an advisory lock holds across statements. */
  openSqlRunner(): Promise<SqlRunner>;
  kind: "postgres" | "pglite";
  /**
   * Hears pg_notify on `channel` from every replica (notifications.ts); absent for PGlite, which
   * is one process's alone.
   */
  listen?: (channel: string, handlers: NotificationHandlers) => Listening;
  /** The PostgreSQL connection pool's state now; absent for PGlite (one session, no pool). */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection because all `max` are busy. */
  waiting: number;
}

export type DatabaseTarget =
  /** `preparedStatements` (default true): each connection prepares a statement text once, by name. */
  | { kind: "postgres"; url: string; poolSize?: number; preparedStatements?: boolean }
  /**
   * `dataDir` undefined: in memory (tests), starting from `loadDataDir` when given (a data folder
   * PGlite's dumpDataDir wrote: the tests' migrated template). `firstImage`: a dumped, freshly
   * made database that a `dataDir` holding none is made from, instead of by PGlite's initdb.
   */
  | { kind: "pglite"; dataDir?: string; loadDataDir?: Blob; firstImage?: string };

export interface OpenOptions {
  /**
   * An idle pooled connection failed (the server restarted or ended it). The pool replaces it;
   * without a listener the error would crash the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

/** Opens PostgreSQL through @prisma/adapter-pg, or an embedded PGlite database. */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  const database =
    target.kind === "postgres"
      ? await openPostgres(target, options.onIdleConnectionError ?? (() => {}))
      : await openPglite(target.dataDir, target.loadDataDir ?? firstImageFor(target));
  // Closing twice is harmless (a shutdown path and a test teardown may both close).
  let closed: Promise<void> | undefined;
  const close = database.close;
  database.close = () => {
    closed ??= close();
    return closed;
  };
  return database;
}

// Prisma's "minimal" error format: the raw message, which is all the log needs (no caller ever
// sees a database error's text). The other formats capture the caller's stack on every query to
// print its code frame, some 35 µs a statement (docs/performance.md, "Prisma Client's share").
const ERROR_FORMAT = "minimal";

// Each kind's driver is loaded only when used: a start loads one of the two (docs/performance.md).
async function openPostgres(
  target: Extract<DatabaseTarget, { kind: "postgres" }>,
  onIdleError: (error: Error) => void,
): Promise<Database> {
  const { url, poolSize, preparedStatements = true } = target;
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  const pool = new pg.Pool({ connectionString: inUtc(url), max: poolSize ?? 10 });
  pool.on("error", onIdleError);
  // Each connection prepares a statement text once under its name (docs/deploy.md,
  // DATABASE_PREPARED_STATEMENTS); off, every statement is unnamed, for PgBouncer.
  const adapter = new PrismaPg(pool, preparedStatements ? { statementNameGenerator: statementNames() } : {});
  const prisma = new PrismaClient({ adapter, errorFormat: ERROR_FORMAT });
  return {
    kind: "postgres",
    prisma,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, handlers) => listenOn(pg.Client, url, channel, handlers),
    openSqlRunner: () => openPostgresSqlRunner(url),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * `url` with its sessions' time zone set to UTC, after any the URL sets itself: the pg adapter
 * writes a Date as UTC text without a zone and reads a timestamptz's offset as UTC
 * (@prisma/adapter-pg mapArg, normalize_timestamptz), so in any other session time zone every
 * time would be written and compared hours off. A startup option: no statement is sent.
 */
function inUtc(url: string): string {
  const withZone = new URL(url);
  const options = withZone.searchParams.get("options");
  withZone.searchParams.set("options", `${options === null ? "" : `${options} `}-c TimeZone=UTC`);
  return withZone.toString();
}

const PGLITE_SHARED_BUFFERS = "32MB";

/**
 * The image a data folder without a database is made from: PGlite's initdb peaks at 730 to 890
 * MB, more than the service ever needs after; loading the image the build made peaks at about
 * 360 (docs/deploy.md, DATA_DIR). Without `firstImage` (tests), initdb.
 */
function firstImageFor(target: { dataDir?: string; firstImage?: string }): Blob | undefined {
  const { dataDir, firstImage } = target;
  if (!dataDir || !firstImage || existsSync(join(dataDir, "PG_VERSION"))) return undefined;
  return new Blob([readFileSync(firstImage)]);
}

async function openPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Database> {
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("pglite-prisma-adapter"),
  ]);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // PostgreSQL's shared buffers live in the WebAssembly memory and are cleared at every start:
  // at initdb's 128 MB that was a quarter of the CPU of opening the database, and 100 MB of
  // memory more than at 32 MB. The embedded database is one service's and small, and the file
  // system caches its files too (docs/performance.md).
  const options = { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`] };
  const withData = loadDataDir ? { ...options, loadDataDir } : options;
  const lite = dataDir ? new PGlite(dataDir, withData) : new PGlite(withData);
  await lite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite), errorFormat: ERROR_FORMAT });
  return {
    kind: "pglite",
    prisma,
    // PGlite is one session; closing the runner must not close the database.
    openSqlRunner: async () => ({
      exec: async (sql) => void (await lite.exec(sql)),
      query: async <Row>(sql: string, params: unknown[] = []) => (await lite.query<Row>(sql, params)).rows,
      close: async () => {},
    }),
    async close() {
      await prisma.$disconnect();
      await lite.close();
    },
  };
}
