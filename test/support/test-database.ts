import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { migrate } from "../../src/store/migrate.js";
import { type Database, type DatabaseTarget, openDatabase } from "../../src/store/open-database.js";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

/**
 * The migrated database every test file's database is copied from, made once per run by
 * test/support/database-template.ts (the integration project's globalSetup).
 */
export type DatabaseTemplate =
  /** `CREATE DATABASE ... TEMPLATE name` on the server at `serverUrl`. */
  | { kind: "postgres"; serverUrl: string; name: string }
  /** A PGlite data folder as dumpDataDir wrote it (a tar file), loaded into memory per database. */
  | { kind: "pglite"; dumpFile: string };

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export interface TestDatabase {
  database: Database;
  target: DatabaseTarget;
  /** Closes the database and drops it. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (DESIGN 5), copied from the run's template: a
 * new database on TEST_DATABASE_URL's server when set, else on PostgreSQL in a container when a
 * Docker engine answers, else PGlite. Outside a vitest run (npm run bench) there is no template:
 * a new database on TEST_DATABASE_URL's server, else an in-memory PGlite, migrated here.
 * `migrated: false` gives an empty database (for the migrator's own tests).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  const template = await runTemplate();
  if (template?.kind === "postgres") return createPostgresDatabase(template.serverUrl, migrated ? template.name : "");
  if (template?.kind === "pglite")
    return migrated ? loadPgliteTemplate(template.dumpFile) : createPgliteDatabase(false);
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const db = await createPostgresDatabase(server, "");
    if (migrated) await migrateDatabase(db.database);
    return db;
  }
  return createPgliteDatabase(migrated);
}

/** Whether tests here run on real PostgreSQL (races need several connections). */
export function onPostgres(db: TestDatabase): boolean {
  return db.target.kind === "postgres";
}

/** Applies every migration to a database made without the template (outside vitest). */
async function migrateDatabase(database: Database): Promise<void> {
  const sql = await database.openSqlRunner();
  try {
    await migrate(sql, MIGRATIONS_DIR);
  } finally {
    await sql.close();
  }
}

/** A database name no other test file, run or helper on the same server picks. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}

/** `serverUrl` with the database part replaced by `name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// The run's template, or none outside vitest (the benchmark imports this file too).
async function runTemplate(): Promise<DatabaseTemplate | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import("vitest");
  return inject("databaseTemplate");
}

async function createPostgresDatabase(serverUrl: string, template: string): Promise<TestDatabase> {
  const name = uniqueDatabaseName("encore_test");
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // Copying the migrated template is one file copy on the server; migrating took every statement.
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const target: DatabaseTarget = { kind: "postgres", url: databaseUrl(serverUrl, name), poolSize: 20 };
  const database = await openDatabase(target);
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

let dump: { file: string; blob: Promise<Blob> } | undefined;

// Loading the dumped template costs a fraction of the CPU of initialising a new cluster (PGlite's
// initdb) and migrating it; in memory, as before, rather than a copied folder on disk, whose
// writes cost more system time than the copy saves.
async function loadPgliteTemplate(file: string): Promise<TestDatabase> {
  if (dump?.file !== file) dump = { file, blob: readFile(file).then((bytes) => new Blob([bytes])) };
  const target: DatabaseTarget = { kind: "pglite", loadDataDir: await dump.blob };
  const database = await openDatabase(target);
  return { database, target, drop: () => database.close() };
}

async function createPgliteDatabase(migrated: boolean): Promise<TestDatabase> {
  // CI sets this: tests that need several connections must run, never fall back and skip.
  if (process.env.REQUIRE_POSTGRES) throw new Error("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not");
  const target: DatabaseTarget = { kind: "pglite" };
  const database = await openDatabase(target);
  if (migrated) await migrateDatabase(database);
  return { database, target, drop: () => database.close() };
}
