import pg from "pg";

/** A statement as the pg driver sends it: its text and its parameters. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * Calls `listener` with every statement the pg driver sends from this process (Prisma's adapter
 * sends them all), until the function returned is called. For counting round trips (the bench)
 * and for looking at what an operation asked of the database (tests).
 */
export function watchStatements(listener: (statement: SentStatement) => void): () => void {
  const send = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args as [string | { text?: unknown; values?: unknown } | undefined, unknown];
    const statement = typeof first === "string" ? { text: first, values: second } : (first ?? {});
    listener({
      text: typeof statement.text === "string" ? statement.text : "",
      values: Array.isArray(statement.values) ? statement.values : [],
    });
    return (send as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof send;
  return () => {
    pg.Client.prototype.query = send;
  };
}
