import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SqlRunner } from "./sql-runner.js";

// Any constant works; it only has to be the same for every replica of the service.
export const MIGRATION_LOCK_KEY = 7_214_003_921;

// Prisma's own bookkeeping table, so `prisma migrate deploy` and this migrator agree.
const CREATE_LEDGER = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;
const SELECT_RECORDED = `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
// PostgreSQL's undefined_table: the ledger does not exist yet (a database never migrated).
const UNDEFINED_TABLE = "42P01";

export interface MigrationResult {
  applied: string[];
}

interface Migration {
  name: string;
  text: string;
  checksum: string;
}

/**
 * Applies every SQL migration under `dir` not yet recorded, in name order, each in its own
 * transaction, under a session advisory lock so replicas starting together migrate once.
 */
export async function migrate(sql: SqlRunner, dir: string): Promise<MigrationResult> {
  const migrations = await readMigrations(dir);
  // Most starts have nothing to apply: one query says so, without the lock or the ledger's
  // CREATE (docs/performance.md). Records are only ever added, so a complete set read without
  // the lock stays complete; anything missing or different goes the locked way below.
  const recorded = await readRecorded(sql).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return new Map<string, string>();
    throw error;
  });
  if (migrations.every((migration) => recorded.get(migration.name) === migration.checksum)) return { applied: [] };

  await sql.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await sql.exec(CREATE_LEDGER);
    const done = await readRecorded(sql);
    const applied: string[] = [];
    for (const { name, text, checksum } of migrations) {
      const previous = done.get(name);
      if (previous !== undefined) {
        if (previous !== checksum) throw new Error(`migration ${name} was changed after it was applied`);
        continue;
      }
      await sql.exec("BEGIN");
      try {
        await sql.exec(text);
        await sql.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await sql.exec("COMMIT");
      } catch (error) {
        await sql.exec("ROLLBACK");
        throw error;
      }
      applied.push(name);
    }
    return { applied };
  } finally {
    await sql.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}

/** Every migration folder's SQL, read together, in name order. */
async function readMigrations(dir: string): Promise<Migration[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(dir, name, "migration.sql"), "utf8");
      return { name, text, checksum: createHash("sha256").update(text).digest("hex") };
    }),
  );
}

/** Applied migrations by name, with the checksum each was applied with. */
async function readRecorded(sql: SqlRunner): Promise<Map<string, string>> {
  const rows = await sql.query<{ migration_name: string; checksum: string }>(SELECT_RECORDED);
  return new Map(rows.map((row) => [row.migration_name, row.checksum]));
}
