import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Query } from "pg";
import type { Prisma } from "../../gen/prisma/client.js";
import { type PgDriver, PreparedStatement, type StatementResult } from "./prepared-statement.js";
import { statementTexts } from "./statement-texts.js";

/**
 * What is used of pg's Pool: one statement on any of its connections. Given a statement object
 * (a Submittable) without a callback, pg-pool answers with a promise of its result, whatever
 * @types/pg says (it types that form as returning the statement).
 */
export interface DirectPool {
  query(statement: Query | PreparedStatement): Promise<StatementResult>;
}

/** Where a root client's direct statements go: the pool Prisma's driver adapter runs on. */
export interface DirectRoute {
  pool: DirectPool;
  /**
   * The name a statement text is prepared under on each connection, or undefined to run it
   * unnamed: the adapter's own namer, so a text has one name on a connection whoever sends it.
   */
  statementName?: (query: { sql: string }) => string | undefined;
  /**
   * pg's statement class (`pg.Query`, for a statement run unnamed) and what a named one needs of
   * pg, passed in so that PGlite's start never loads pg.
   */
  Query: typeof Query;
  driver: PgDriver;
}

// The root clients that may run statements without Prisma's client, and where to.
const routes = new WeakMap<object, DirectRoute>();

/**
 * Lets `queryRows` and `executeCount` run statements on `db` straight on the pg pool under its
 * driver adapter (open-database.ts, for PostgreSQL). Not for PGlite: one session, whose
 * transactions the adapter Prisma holds serialises; a statement of ours could land inside one.
 */
export function allowDirectQueries(db: object, route: DirectRoute): void {
  routes.set(db, route);
}

/**
 * The rows of a statement (a read, or a write's RETURNING). On a client allowed direct queries, the
 * statement goes straight to pg, on the pool and prepared-statement names Prisma's adapter uses:
 * Prisma's client planned and mapped each raw query again (140 of the 300 µs of CPU of an
 * uncached funding:get), and its adapter converted every argument and result and logged every
 * statement at debug level, enabled or not (docs/performance.md). Values come as pg gives them
 * (int8 and numeric as decimal text, bytea as bytes, timestamptz as a Date) rather than as
 * Prisma types them (int8 as bigint): each read's mapper converts its columns (BigInt), so both
 * forms give the same record; `Driven<T>` types a row that way. A transaction's client is never
 * allowed: its statements keep its connection, through Prisma.
 */
// The root client or a transaction's (PrismaClient has every method of a transaction's client).
export async function queryRows<Row extends object>(db: Prisma.TransactionClient, query: Prisma.Sql): Promise<Row[]> {
  const route = routes.get(db);
  if (route === undefined) return db.$queryRaw<Row[]>(query);
  return (await runDirect(route, query)).rows as Row[];
}

/** The rows a write changed, run as `queryRows` runs a read. */
export async function executeCount(db: Prisma.TransactionClient, query: Prisma.Sql): Promise<number> {
  const route = routes.get(db);
  if (route === undefined) return db.$executeRaw(query);
  return (await runDirect(route, query)).rowCount ?? 0;
}

// One string a statement text, whatever the client (statement-texts.ts).
const textOf = statementTexts();

function runDirect(route: DirectRoute, query: Prisma.Sql) {
  const text = textOf(query);
  const name = route.statementName?.({ sql: text });
  // A named statement has its rows described once per connection (prepared-statement.ts); an
  // unnamed one is parsed at every run, so pg's own Query, made from the text rather than from a
  // config object, which pg would copy by reflection (`cloneQueryConfig`, docs/performance.md).
  const statement =
    name === undefined
      ? new route.Query(text, query.values)
      : new PreparedStatement(route.driver, name, text, query.values);
  return traced(text, () => route.pool.query(statement));
}

/** A column read by `queryRows`: as Prisma types it, or as pg gives it on the direct path. */
export type Driven<T> = T extends bigint ? bigint | string : T;

/**
 * With tracing on, a direct statement is a client span of the call or job that ran it, as
 * Prisma's instrumentation makes one of each query it runs; without, no span is made at all.
 */
function traced<T>(text: string, run: () => Promise<T>): Promise<T> {
  if (trace.getActiveSpan()?.isRecording() !== true) return run();
  const attributes = { "db.system.name": "postgresql", "db.query.text": text };
  // Asked of the registered provider each time, not kept: a tracer kept from an earlier
  // registration would send its spans to a provider shut down since (tests register one per file).
  return trace
    .getTracer("encore-campaigns")
    .startActiveSpan("postgresql query", { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        return await run();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    });
}
