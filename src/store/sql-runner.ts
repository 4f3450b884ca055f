/** The little raw SQL the migrator and test helpers need, over either driver. */
export interface SqlRunner {
  /** Runs one or more statements without parameters (simple query protocol). */
  exec(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}
