import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/store/migrate.js";
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
});
