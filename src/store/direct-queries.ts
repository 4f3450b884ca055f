import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Prisma } from "../../gen/prisma/client.js";

/** What is used of a Prisma driver adapter (@prisma/driver-adapter-utils SqlQueryable). */
export interface RawQueryable {
  queryRaw(query: AdapterQuery): Promise<{ columnNames: string[]; rows: unknown[][] }>;
  executeRaw(query: AdapterQuery): Promise<number>;
}

interface AdapterQuery {
  sql: string;
  args: unknown[];
  argTypes: { scalarType: "unknown"; arity: "scalar" }[];
}

// The adapter reads each argument by its JavaScript type (a Date as a UTC timestamp, bytes as
// bytea), as it does when Prisma's client hands it the same query.
const adapterQuery = (query: Prisma.Sql): AdapterQuery => ({
  sql: query.text,
  args: query.values,
  argTypes: query.values.map(() => ({ scalarType: "unknown", arity: "scalar" })),
});

// The driver adapter behind each root client that may run statements without Prisma's client.
const adapters = new WeakMap<object, RawQueryable>();

/**
 * Lets `queryRows` and `executeCount` run statements on `db` straight through its driver adapter (open-database.ts, for
 * PostgreSQL). Not for PGlite: one session, whose transactions the adapter Prisma holds
 * serialises; another adapter's statement could land inside one of them.
 */
export function allowDirectQueries(db: object, adapter: RawQueryable): void {
  adapters.set(db, adapter);
}

/**
 * The rows of a statement (a read, or a write's RETURNING). On a client allowed direct queries, the statement goes straight to the
 * driver adapter Prisma itself uses (the same pool, prepared statements and error kinds):
 * Prisma's client planned and mapped each raw query again, 140 of the 300 µs of CPU of an
 * uncached funding:get (docs/performance.md). Values then come as the adapter gives them (int8
 * as decimal text, timestamps as ISO 8601 text in UTC, bytea as bytes) rather than as Prisma
 * types them (bigint, Date): each read's mapper converts its columns (BigInt, new Date), so
 * both forms give the same record; `Driven<T>` types a row that way. A transaction's client is
 * never allowed: its statements keep its connection, through Prisma.
 */
// The root client or a transaction's (PrismaClient has every method of a transaction's client).
export async function queryRows<Row extends object>(db: Prisma.TransactionClient, query: Prisma.Sql): Promise<Row[]> {
  const adapter = adapters.get(db);
  if (adapter === undefined) return db.$queryRaw<Row[]>(query);
  const { columnNames, rows } = await traced(query, () => adapter.queryRaw(adapterQuery(query)));
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) row[columnNames[i] as string] = values[i];
    return row as Row;
  });
}

/** The rows a write changed, run as `queryRows` runs a read. */
export async function executeCount(db: Prisma.TransactionClient, query: Prisma.Sql): Promise<number> {
  const adapter = adapters.get(db);
  if (adapter === undefined) return db.$executeRaw(query);
  return traced(query, () => adapter.executeRaw(adapterQuery(query)));
}

/** A column read by `queryRows`: as Prisma types it, or as the driver adapter gives it. */
export type Driven<T> = T extends bigint ? bigint | string : T extends Date ? Date | string : T;

/**
 * With tracing on, a direct statement is a client span of the call or job that ran it, as
 * Prisma's instrumentation makes one of each query it runs; without, no span is made at all.
 */
function traced<T>(query: Prisma.Sql, run: () => Promise<T>): Promise<T> {
  if (trace.getActiveSpan()?.isRecording() !== true) return run();
  const attributes = { "db.system.name": "postgresql", "db.query.text": query.text };
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
