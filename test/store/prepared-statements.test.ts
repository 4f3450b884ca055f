import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "../../gen/prisma/client.js";
import { openDatabase } from "../../src/store/open-database.js";
import { statementNames } from "../../src/store/statement-names.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// DATABASE_PREPARED_STATEMENTS (docs/deploy.md): on a connection of its own (a pool of one), a
// statement the service ran is prepared in that session under its name (the pg adapter's
// statementNameGenerator), or not at all when off.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe.runIf(process.env.TEST_DATABASE_URL)("prepared statements on PostgreSQL", () => {
  const prepared = async (preparedStatements: boolean) => {
    if (db.target.kind !== "postgres") throw new Error("PostgreSQL only");
    const database = await openDatabase({ ...db.target, poolSize: 1, preparedStatements });
    try {
      const campaignKey = "no-such-key";
      for (let i = 0; i < 2; i++) {
        await database.prisma.$queryRaw`SELECT id FROM campaigns WHERE campaign_key = ${campaignKey}`;
        const [row] = await database.prisma.$queryRaw<{ key: string; n: number }[]>`
          SELECT ${campaignKey}::text AS key, count(*)::int AS n FROM campaigns WHERE campaign_key = ${campaignKey}`;
        expect(row).toEqual({ key: campaignKey, n: 0 });
      }
      return await database.prisma.$queryRaw<{ name: string; statement: string }[]>`
        SELECT name, statement FROM pg_prepared_statements`;
    } finally {
      await database.close();
    }
  };

  it("prepares each statement once per connection, under its name, when on", async () => {
    expect(onPostgres(db)).toBe(true);
    const statements = await prepared(true);
    const named = { name: expect.stringMatching(/^encore_\d+$/), statement: expect.any(String) };
    const lookups = statements.filter((s) => s.statement.includes("WHERE campaign_key = $1"));
    const counts = statements.filter((s) => s.statement.includes("count(*)"));
    expect(lookups).toEqual([named]);
    expect(counts).toEqual([named]);
  });

  it("prepares nothing when off", async () => {
    expect(await prepared(false)).toEqual([]);
  });

  it("runs texts past the namer's limit as PostgreSQL's unnamed statement, again and again", async () => {
    if (db.target.kind !== "postgres") throw new Error("PostgreSQL only");
    const pool = new pg.Pool({ connectionString: db.target.url, max: 1 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: statementNames(1) }) });
    try {
      for (let i = 0; i < 2; i++) {
        expect(await prisma.$queryRaw`SELECT ${i}::int AS first`).toEqual([{ first: i }]);
        expect(await prisma.$queryRaw`SELECT ${i}::int AS second`).toEqual([{ second: i }]);
      }
      const statements = await prisma.$queryRaw<{ name: string }[]>`SELECT name FROM pg_prepared_statements`;
      expect(statements).toEqual([{ name: "encore_1" }]);
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });
});
