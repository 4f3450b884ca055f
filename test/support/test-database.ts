import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { migrate } from "../../src/store/migrate.js";
import { type Database, type DatabaseTarget, openDatabase } from "../../src/store/open-database.js";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

export interface TestDatabase {
  database: Database;
  target: DatabaseTarget;
  /** Closes the database and drops it. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (DESIGN 5): a new database on
 * TEST_DATABASE_URL's server when set; else PostgreSQL in a container when a Docker engine
 * answers; else an in-memory PGlite, said once on stderr.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  const server = process.env.TEST_DATABASE_URL ?? (await startContainer());
  if (!server) {
    // CI sets this: tests that need several connections must run, never fall back and skip.
    if (process.env.REQUIRE_POSTGRES) throw new Error("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not");
    return createPgliteDatabase(migrated);
  }
  return createPostgresDatabase(server, migrated);
}

/** Whether tests here run on real PostgreSQL (races need several connections). */
export function onPostgres(db: TestDatabase): boolean {
  return db.target.kind === "postgres";
}

async function createPostgresDatabase(serverUrl: string, migrated: boolean): Promise<TestDatabase> {
  const name = `encore_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const target: DatabaseTarget = { kind: "postgres", url: url.toString(), poolSize: 20 };
  const database = await openDatabase(target);
  if (migrated) await migrateDatabase(database);
  return {
    database,
    target,
    async drop() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

let saidPglite = false;

async function createPgliteDatabase(migrated: boolean): Promise<TestDatabase> {
  if (!saidPglite) {
    saidPglite = true;
    process.stderr.write("tests: no TEST_DATABASE_URL and no Docker engine: using in-memory PGlite\n");
  }
  const target: DatabaseTarget = { kind: "pglite" };
  const database = await openDatabase(target);
  if (migrated) await migrateDatabase(database);
  return { database, target, drop: () => database.close() };
}

async function migrateDatabase(database: Database): Promise<void> {
  const sql = await database.openSqlRunner();
  try {
    await migrate(sql, MIGRATIONS_DIR);
  } finally {
    await sql.close();
  }
}

let container: Promise<string | undefined> | undefined;

/** One PostgreSQL container per test process, when a container runtime answers. */
function startContainer(): Promise<string | undefined> {
  container ??= (async () => {
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers");
    try {
      await getContainerRuntimeClient();
    } catch {
      return undefined;
    }
    const started = await new GenericContainer("postgres:16-alpine")
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
      .start();
    return `postgresql://postgres@${started.getHost()}:${started.getMappedPort(5432)}/postgres`;
  })();
  return container;
}
