import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type PgConnection,
  type PgDriver,
  PreparedStatement,
  pgDriverOf,
  type StatementResult,
} from "../../src/store/prepared-statement.js";
import { isStoreUnavailable } from "../../src/store/store-unavailable.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

// Issue 14: a named statement run straight on pg has its rows described once per connection, not
// at every run (src/store/prepared-statement.ts). It must give what pg's own Query gives, fail as
// it fails, and leave the connection usable after any failure.
let db: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase();
  client = await connect();
});
afterAll(async () => {
  await client?.end();
  await db.drop();
});

const pgDriver = pgDriverOf(pg);

async function connect(): Promise<pg.Client> {
  if (db.target.kind !== "postgres") throw new Error("PostgreSQL only");
  const connected = new pg.Client({ connectionString: db.target.url });
  await connected.connect();
  return connected;
}

// The statement on `on`, as pg-pool runs one: given with a callback, answered through it.
function run(on: pg.Client, statement: PreparedStatement): Promise<StatementResult> {
  return new Promise((resolve, reject) => {
    const query = on.query as unknown as (
      s: PreparedStatement,
      done: (e: Error | null, r?: StatementResult) => void,
    ) => void;
    query.call(on, statement, (error, result) => (error ? reject(error) : resolve(result as StatementResult)));
  });
}

let statements = 0;
// A name of its own for each text, as statement-names.ts gives one.
function statement(text: string, values: unknown[] = [], driver = pgDriver): PreparedStatement {
  statements += 1;
  return new PreparedStatement(driver, `encore_test_${statements}`, text, values);
}

/** How many times the connection was asked to Parse and to Describe while `during` ran. */
async function messagesSent(on: pg.Client, during: () => Promise<unknown>) {
  const connection = (on as unknown as { connection: PgConnection }).connection;
  const parse = vi.spyOn(connection, "parse");
  const describe = vi.spyOn(connection, "describe");
  try {
    await during();
    return { parses: parse.mock.calls.length, describes: describe.mock.calls.length };
  } finally {
    parse.mockRestore();
    describe.mockRestore();
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)("a prepared statement run straight on pg", () => {
  const everyType = `SELECT $1::int8 AS big, $2::int4 AS small, $3::numeric AS money, $4::timestamptz AS at,
    $5::bytea AS bytes, $6::bool AS yes, $7::text AS absent, $8::jsonb AS document, 'x' AS "x", 'y' AS "y"`;
  const everyValue = [
    9_007_199_254_740_993n.toString(),
    7,
    "12.500000001",
    new Date("2026-11-25T20:58:01.234Z"),
    Buffer.from("not a real key"),
    true,
    null,
    { a: [1, "2"] },
  ];

  it("gives the rows pg's own Query gives, every time", async () => {
    const byPg = await client.query(everyType, everyValue);
    const named = statement(everyType, everyValue);
    const first = await run(client, named);
    const again = await run(client, statement(everyType, everyValue));
    expect(byPg.rows).toHaveLength(1);
    expect(first.rows).toEqual(byPg.rows);
    expect(first.rows[0]).toEqual({
      big: "9007199254740993",
      small: 7,
      money: "12.500000001",
      at: new Date("2026-11-25T20:58:01.234Z"),
      bytes: Buffer.from("not a real key"),
      yes: true,
      absent: null,
      document: { a: [1, "2"] },
      x: "x",
      y: "y",
    });
    expect(first.rowCount).toBe(1);
    expect(again).toEqual(first);
  });

  it("asks PostgreSQL to parse and describe it once per connection", async () => {
    const text = "SELECT n, n * 2 AS twice FROM generate_series(1, $1::int) AS n";
    const runs = async (on: pg.Client) => {
      const results: StatementResult[] = [];
      for (const count of [1, 2, 3])
        results.push(await run(on, new PreparedStatement(pgDriver, "encore_series", text, [count])));
      return results;
    };
    const first = await messagesSent(client, () => runs(client));
    expect(first).toEqual({ parses: 1, describes: 1 });
    expect(await messagesSent(client, () => runs(client))).toEqual({ parses: 0, describes: 0 });
    expect((await runs(client)).map((result) => result.rows)).toEqual([
      [{ n: 1, twice: 2 }],
      [
        { n: 1, twice: 2 },
        { n: 2, twice: 4 },
      ],
      [
        { n: 1, twice: 2 },
        { n: 2, twice: 4 },
        { n: 3, twice: 6 },
      ],
    ]);
    // Another connection knows nothing of it yet.
    const other = await connect();
    try {
      expect(await messagesSent(other, () => runs(other))).toEqual({ parses: 1, describes: 1 });
    } finally {
      await other.end();
    }
  });

  it("counts the rows a write changed, and describes a statement without rows once", async () => {
    await client.query("CREATE TEMPORARY TABLE counted (n int)");
    const insert = () =>
      run(
        client,
        new PreparedStatement(
          pgDriver,
          "encore_insert",
          "INSERT INTO counted SELECT generate_series($1::int, $2::int)",
          [1, 3],
        ),
      );
    const update = () =>
      run(
        client,
        new PreparedStatement(
          pgDriver,
          "encore_update",
          "UPDATE counted SET n = n + 10 WHERE n BETWEEN $1::int AND 9",
          [2],
        ),
      );
    const sent = await messagesSent(client, async () => {
      expect(await insert()).toEqual({ rows: [], rowCount: 3 });
      expect(await update()).toEqual({ rows: [], rowCount: 2 });
      expect(await update()).toEqual({ rows: [], rowCount: 0 });
    });
    expect(sent).toEqual({ parses: 2, describes: 2 });
    // 1, 12 and 13 now.
    const returning = async () => {
      const text = "UPDATE counted SET n = n + 1 RETURNING n";
      const { rows, rowCount } = await run(client, new PreparedStatement(pgDriver, "encore_returning", text, []));
      return { ns: rows.map((row) => row.n).sort((a, b) => Number(a) - Number(b)), rowCount };
    };
    expect(await returning()).toEqual({ ns: [2, 13, 14], rowCount: 3 });
    expect(await returning()).toEqual({ ns: [3, 14, 15], rowCount: 3 });
  });

  it("fails as pg fails, with PostgreSQL's error, and the connection and statement work after", async () => {
    await client.query("CREATE TEMPORARY TABLE once (n int PRIMARY KEY)");
    const insert = (n: number) =>
      run(client, new PreparedStatement(pgDriver, "encore_once", "INSERT INTO once VALUES ($1::int) RETURNING n", [n]));
    expect((await insert(1)).rows).toEqual([{ n: 1 }]);
    const duplicate = await insert(1).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(pg.DatabaseError);
    expect(duplicate).toMatchObject({ code: "23505" });
    expect(await messagesSent(client, () => insert(2))).toEqual({ parses: 0, describes: 0 });
    expect((await client.query("SELECT n FROM once ORDER BY n")).rows).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("is parsed and described anew after a text PostgreSQL refused to parse", async () => {
    const broken = () => run(client, new PreparedStatement(pgDriver, "encore_broken", "SELEC 1", []));
    await expect(broken()).rejects.toMatchObject({ code: "42601" });
    const sent = await messagesSent(client, () => broken().catch(() => undefined));
    expect(sent).toEqual({ parses: 1, describes: 1 });
    expect((await run(client, statement("SELECT 1 AS one"))).rows).toEqual([{ one: 1 }]);
  });

  it("refuses a value pg cannot send before writing anything, and the connection works after", async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const sent = await messagesSent(client, async () => {
      await expect(run(client, statement("SELECT $1::jsonb AS j", [circular]))).rejects.toThrow(/circular/i);
    });
    expect(sent).toEqual({ parses: 0, describes: 0 });
    expect((await run(client, statement("SELECT $1::int AS n", [5]))).rows).toEqual([{ n: 5 }]);
  });

  it("fails with a parser's error once PostgreSQL is done, and the connection works after", async () => {
    const refusing: PgDriver = {
      ...pgDriver,
      getTypeParser: () => () => {
        throw new Error("not a value this parser takes");
      },
    };
    await expect(run(client, statement("SELECT 1 AS n FROM generate_series(1, 3)", [], refusing))).rejects.toThrow(
      "not a value this parser takes",
    );
    expect((await run(client, statement("SELECT 2 AS n"))).rows).toEqual([{ n: 2 }]);
  });

  it("refuses a name already prepared for another text, as pg's Query does", async () => {
    await run(client, new PreparedStatement(pgDriver, "encore_taken", "SELECT 1 AS n", []));
    await expect(run(client, new PreparedStatement(pgDriver, "encore_taken", "SELECT 2 AS n", []))).rejects.toThrow(
      "Prepared statements must be unique",
    );
  });

  it("keeps each connection's rows apart under concurrent statements on a pool", async () => {
    if (db.target.kind !== "postgres") throw new Error("PostgreSQL only");
    const pool = new pg.Pool({ connectionString: db.target.url, max: 3 });
    try {
      const text = "SELECT $1::int AS asked, repeat('x', $1::int) AS filler";
      const asked = Array.from({ length: 60 }, (_, i) => i);
      const results = await Promise.all(
        asked.map(
          (n) =>
            pool.query(
              new PreparedStatement(pgDriver, "encore_pooled", text, [n]) as never,
            ) as unknown as Promise<StatementResult>,
        ),
      );
      expect(results.map((result) => result.rows)).toEqual(asked.map((n) => [{ asked: n, filler: "x".repeat(n) }]));
    } finally {
      await pool.end();
    }
  });

  it("fails as the database being unavailable when PostgreSQL ends its session mid-statement, and the pool goes on", async () => {
    if (db.target.kind !== "postgres") throw new Error("PostgreSQL only");
    const pool = new pg.Pool({ connectionString: db.target.url, max: 1 });
    // The pool's connection, once ended, emits its error on the pool too; without a listener the
    // process would crash, as the service's own pool is kept from (open-database.ts).
    pool.on("error", () => {});
    const runOnPool = (statement: PreparedStatement) =>
      pool.query(statement as never) as unknown as Promise<StatementResult>;
    try {
      const [{ pid }] = (await runOnPool(statement("SELECT pg_backend_pid() AS pid"))).rows as [{ pid: number }];
      const sleeping = runOnPool(statement("SELECT pg_sleep(30) AS slept")).catch((error: unknown) => error);
      // Ended from another session once the statement is running there.
      await vi.waitFor(async () => {
        const { rows } = await client.query("SELECT state FROM pg_stat_activity WHERE pid = $1", [pid]);
        expect(rows).toEqual([{ state: "active" }]);
      });
      await client.query("SELECT pg_terminate_backend($1)", [pid]);
      const error = await sleeping;
      expect(error).toBeInstanceOf(Error);
      expect(isStoreUnavailable(error)).toBe(true);
      expect((await runOnPool(statement("SELECT 3 AS n"))).rows).toEqual([{ n: 3 }]);
    } finally {
      await pool.end();
    }
  });
});
