import { appendFile, cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_LOCK_KEY, migrate } from "../../src/store/migrate.js";
import { createTestDatabase, MIGRATIONS_DIR, onPostgres, type TestDatabase } from "../support/test-database.js";

describe("migrate", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it("has applied every migration, and a second run applies nothing", async () => {
    const sql = await db.database.openSqlRunner();
    try {
      expect(await migrate(sql, MIGRATIONS_DIR)).toEqual({ applied: [] });
      const rows = await sql.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations"`);
      expect(rows.map((row) => row.migration_name)).toContain("20261122000000_init");
    } finally {
      await sql.close();
    }
  });

  it("holds the operator settings row and the amount checks", async () => {
    const settings = await db.database.prisma.operatorSettings.findUnique({ where: { id: 1 } });
    expect(settings).not.toBeNull();
    await expect(db.database.prisma.operatorSettings.create({ data: { id: 2 } })).rejects.toThrow();
  });

  it("lets replicas starting together migrate once (advisory lock)", async (context) => {
    if (!onPostgres(db)) context.skip();
    const empty = await createTestDatabase({ migrated: false });
    const runners = await Promise.all([empty.database.openSqlRunner(), empty.database.openSqlRunner()]);
    try {
      const results = await Promise.all(runners.map((sql) => migrate(sql, MIGRATIONS_DIR)));
      const applied = results.flatMap((result) => result.applied);
      const all = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
      // Every migration applied exactly once, by whichever replica took the lock first.
      expect(applied.sort()).toEqual(all);
      expect(results.some((result) => result.applied.length === 0)).toBe(true);
    } finally {
      await Promise.all(runners.map((sql) => sql.close()));
      await empty.drop();
    }
  });

  it("with nothing to apply, does not wait for a replica holding the migration lock", async (context) => {
    if (!onPostgres(db)) context.skip();
    const other = new pg.Client({ connectionString: (db.target as { url: string }).url });
    await other.connect();
    const sql = await db.database.openSqlRunner();
    try {
      // Another replica migrating (or stuck): a start whose migrations are all recorded goes on.
      await other.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      // Waiting for the lock would fail here rather than hang the file.
      await sql.exec("SET lock_timeout = '5s'");
      expect(await migrate(sql, MIGRATIONS_DIR)).toEqual({ applied: [] });
    } finally {
      await sql.close();
      await other.end();
    }
  });

  it("applies a migration added after the others were applied", async () => {
    const dir = await copyOfMigrations();
    const sql = await db.database.openSqlRunner();
    try {
      await mkdir(join(dir, "29990101000000_later"));
      await writeFile(join(dir, "29990101000000_later", "migration.sql"), "CREATE TABLE later_for_test (id INTEGER);");
      expect(await migrate(sql, dir)).toEqual({ applied: ["29990101000000_later"] });
      expect(await sql.query("SELECT id FROM later_for_test")).toEqual([]);
      expect(await migrate(sql, dir)).toEqual({ applied: [] });
    } finally {
      await sql.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a migration changed after it was applied", async () => {
    const dir = await copyOfMigrations();
    const sql = await db.database.openSqlRunner();
    try {
      await appendFile(join(dir, "20261122000000_init", "migration.sql"), "\n-- edited\n");
      await expect(migrate(sql, dir)).rejects.toThrow("migration 20261122000000_init was changed after it was applied");
    } finally {
      await sql.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "encore-migrations-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}
