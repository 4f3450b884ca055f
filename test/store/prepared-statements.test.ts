import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../gen/prisma/client.js";
import { queryRows } from "../../src/store/direct-queries.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// DATABASE_PREPARED_STATEMENTS (issue 14): on a connection of its own (a pool of one), a
// statement the service ran is prepared in that session under its name, or not at all when off.
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
        // Straight on pg (direct-queries.ts): named, or pg's own unnamed Query when off.
        const [row] = await queryRows<{ key: string; n: number }>(
          database.prisma,
          Prisma.sql`SELECT ${campaignKey}::text AS key, count(*)::int AS n FROM campaigns WHERE campaign_key = ${campaignKey}`,
        );
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
});
