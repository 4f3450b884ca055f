import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    const lookups = statements.filter((s) => s.statement.includes("campaign_key = $1"));
    expect(lookups).toEqual([{ name: expect.stringMatching(/^encore_\d+$/), statement: expect.any(String) }]);
  });

  it("prepares nothing when off", async () => {
    expect(await prepared(false)).toEqual([]);
  });
});
