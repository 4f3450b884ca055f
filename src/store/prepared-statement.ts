/**
 * A named statement run on pg's extended query protocol that asks PostgreSQL to describe its
 * rows once per connection instead of at every run (docs/performance.md "Rows described
 * once"). pg's own `Query` sends Describe with every execution and, from the RowDescription that
 * answers it, builds a table of value parsers and a null-prototype template row it then spreads
 * into every row (`Result.addFields`, the largest single item of pg's in the purchase profile).
 * A prepared statement's columns cannot change while it stays prepared (PostgreSQL refuses to
 * run it with "cached plan must not change result type"), so what the first description says
 * holds for every later run on that connection.
 *
 * This is pg's Submittable: the client calls `submit` with its connection when the statement's
 * turn comes, then hands it the backend's answers (`handleRowDescription` and the rest) until
 * ReadyForQuery. The result is `{ rows, rowCount }`, rows as plain objects keyed by column name,
 * values as pg's type parsers give them, as pg's `Query` gives them.
 */

/** What pg's type parsers are: text from the wire to a value. */
type ValueParser = (text: string) => unknown;

/** What is used of pg itself, passed in so that PGlite's start never loads pg. */
export interface PgDriver {
  /** pg's conversion of an argument to its wire text (`pg.utils.prepareValue`). */
  prepareValue(value: unknown): unknown;
  /** pg's parser for a column type, text format (`pg.types.getTypeParser`). */
  getTypeParser(oid: number, format: "text"): ValueParser;
}

/**
 * What a named statement needs of pg, taken from pg's module (its value conversion is `utils`,
 * which @types/pg leaves out).
 */
export function pgDriverOf(pg: { types: Pick<PgDriver, "getTypeParser"> }): PgDriver {
  const { utils } = pg as unknown as { utils: Pick<PgDriver, "prepareValue"> };
  return { prepareValue: utils.prepareValue, getTypeParser: pg.types.getTypeParser };
}

/** What is used of pg's Connection (lib/connection.js), which @types/pg does not describe. */
export interface PgConnection {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  stream: { cork?(): void; uncork?(): void };
  parse(message: { text: string; name: string }): void;
  bind(message: { statement: string; values: unknown[] }): void;
  describe(message: { type: "P"; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
}

/** A statement's columns on one connection: their names and their values' parsers, in order. */
interface RowShape {
  names: string[];
  parsers: ValueParser[];
}

const NO_ROWS: RowShape = { names: [], parsers: [] };

export interface StatementResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

// Per connection (pg makes a new one for each new session), per statement name. A name means
// one text on a connection whoever prepares it (statement-names.ts).
const shapesByConnection = new WeakMap<PgConnection, Map<string, RowShape>>();

function shapesOf(connection: PgConnection): Map<string, RowShape> {
  let shapes = shapesByConnection.get(connection);
  if (shapes === undefined) {
    shapes = new Map();
    shapesByConnection.set(connection, shapes);
  }
  return shapes;
}

// "INSERT 0 1", "UPDATE 3", "SELECT 2": the count is the tag's last number; BEGIN and the like
// have none.
const COMMAND_COUNT = /(\d+)$/;

export class PreparedStatement {
  /** Set by pg's client (pg-pool passes one): called once, with the error or the result. */
  callback?: (error: Error | null, result?: StatementResult) => void;

  private shapes: Map<string, RowShape> | undefined;
  private shape: RowShape | undefined;
  private described = false;
  private readonly rows: Record<string, unknown>[] = [];
  private rowCount: number | null = null;
  // A row pg could not parse: the statement fails with it once the backend is done (ReadyForQuery).
  private rowFailure: Error | undefined;

  constructor(
    private readonly driver: PgDriver,
    readonly name: string,
    readonly text: string,
    private readonly values: readonly unknown[],
  ) {}

  /** Writes the statement (Parse only the first time on this connection) or returns why not. */
  submit(connection: PgConnection): Error | null {
    const previous = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (previous !== undefined && previous !== this.text) {
      return new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
    }
    // Converted before anything is written: a value pg cannot send fails the statement alone,
    // with nothing half-sent on the connection.
    let values: unknown[];
    try {
      values = this.values.map((value) => this.driver.prepareValue(value));
    } catch (error) {
      return asError(error);
    }
    this.shapes = shapesOf(connection);
    // Parsed now (again, after the connection forgot it): describe it anew as well.
    this.shape = previous === undefined ? undefined : this.shapes.get(this.name);
    this.described = this.shape === undefined;
    // One write for the whole exchange, as pg's Query does.
    connection.stream.cork?.();
    try {
      if (previous === undefined) {
        connection.parse({ text: this.text, name: this.name });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ statement: this.name, values });
      if (this.described) connection.describe({ type: "P", name: "" });
      connection.execute({ portal: "" });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    const shape: RowShape = {
      names: message.fields.map((field) => field.name),
      parsers: message.fields.map((field) => this.driver.getTypeParser(field.dataTypeID, "text")),
    };
    this.shape = shape;
    this.shapes?.set(this.name, shape);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.rowFailure !== undefined) return;
    const shape = this.shape;
    if (shape === undefined) {
      this.rowFailure = new Error(`A row came for statement '${this.name}' before its description`);
      return;
    }
    try {
      const row: Record<string, unknown> = {};
      const fields = message.fields;
      for (let i = 0; i < fields.length; i++) {
        const text = fields[i];
        row[shape.names[i] as string] =
          text === null || text === undefined ? null : (shape.parsers[i] as ValueParser)(text);
      }
      this.rows.push(row);
    } catch (error) {
      this.rowFailure = asError(error);
    }
  }

  handleCommandComplete(message: { text: string }): void {
    const count = COMMAND_COUNT.exec(message.text);
    this.rowCount = count === null ? null : Number(count[1]);
    // Described and no RowDescription came (NoData): a statement without rows. Known from now on.
    if (this.described && this.shape === undefined) this.shapes?.set(this.name, NO_ROWS);
  }

  handleEmptyQuery(): void {}

  // Only a statement that keeps a portal open gets these; this one never asks for a page.
  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail("No source stream defined");
  }

  handleCopyData(): void {}

  handleError(error: Error): void {
    this.finish(this.rowFailure ?? error);
  }

  handleReadyForQuery(): void {
    if (this.rowFailure !== undefined) this.finish(this.rowFailure);
    else this.finish(null, { rows: this.rows, rowCount: this.rowCount });
  }

  private finish(error: Error | null, result?: StatementResult): void {
    const callback = this.callback;
    // pg may report a failure and then the end of the exchange: the first word is the answer.
    this.callback = undefined;
    callback?.(error, result);
  }
}

// What was thrown, as an Error for pg's callback (a parser or a value's toPostgres may throw anything).
function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
