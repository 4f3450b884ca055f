import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../../gen/prisma/client.js";
import type { SqlRunner } from "./sql-runner.js";

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  /** A raw connection for migrations: one session, so an advisory lock holds across statements. */
  openSqlRunner(): Promise<SqlRunner>;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: "postgres"; url: string; poolSize?: number }
  /** `dataDir` undefined: in memory (tests). */
  | { kind: "pglite"; dataDir?: string };

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
      ? openPostgres(target.url, target.poolSize, options.onIdleConnectionError ?? (() => {}))
      : await openPglite(target.dataDir);
  // Closing twice is harmless (a shutdown path and a test teardown may both close).
  let closed: Promise<void> | undefined;
  const close = database.close;
  database.close = () => {
    closed ??= close();
    return closed;
  };
  return database;
}

function openPostgres(url: string, poolSize: number | undefined, onIdleError: (error: Error) => void): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize ?? 10 });
  pool.on("error", onIdleError);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    async openSqlRunner() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return {
        exec: async (sql) => void (await client.query(sql)),
        query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
        close: () => client.end(),
      };
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const lite = dataDir ? new PGlite(dataDir) : new PGlite();
  await lite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
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
