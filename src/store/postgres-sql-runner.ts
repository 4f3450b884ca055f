import type { SqlRunner } from "./sql-runner.js";

/** One plain connection to PostgreSQL for the migrator: one session, so its advisory lock holds. */
export async function openPostgresSqlRunner(url: string): Promise<SqlRunner> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    exec: async (sql) => void (await client.query(sql)),
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
    close: () => client.end(),
  };
}
