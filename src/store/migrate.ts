import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SqlRunner } from "./sql-runner.js";

// Any constant works; it only has to be the same for every replica of the service.
const MIGRATION_LOCK_KEY = 7_214_003_921;

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

export interface MigrationResult {
  applied: string[];
}

/**
 * Applies every SQL migration under `dir` not yet recorded, in name order, each in its own
 * transaction, under a session advisory lock so replicas starting together migrate once.
 */
export async function migrate(sql: SqlRunner, dir: string): Promise<MigrationResult> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  await sql.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await sql.exec(CREATE_LEDGER);
    const done = await sql.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const recorded = new Map(done.map((row) => [row.migration_name, row.checksum]));
    const applied: string[] = [];
    for (const name of names) {
      const text = await readFile(join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(text).digest("hex");
      const previous = recorded.get(name);
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
