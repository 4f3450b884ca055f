// Which store failures mean "the database is not answering" (retry later: 503) rather than
// a fault of ours (500). Spec 4.5: clients retry 503, never 500, so an outage must read as one.

// Prisma's connection-level errors (P1xxx) and its pool timeout.
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "DatabaseDoesNotExist",
]);
// PostgreSQL SQLSTATE classes 08 (connection exception) and 57P (operator intervention:
// shutdown, restart), and 53300 (too many connections).
const UNAVAILABLE_SQLSTATE = /^(08|57P|53300)/;
// What the drivers throw themselves when they have no connection to give.
const UNAVAILABLE_MESSAGES = [
  "Cannot use a pool after calling end on the pool",
  "Connection terminated",
  "connection error and is not queryable",
  "PGlite is closed",
  "ECONNREFUSED",
  "ECONNRESET",
];

interface AdapterCause {
  kind?: unknown;
  originalCode?: unknown;
}

interface StoreErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: AdapterCause;
  meta?: { driverAdapterError?: { cause?: AdapterCause } };
}

export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { name, code, message, meta } = error as StoreErrorShape;
  if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  // Prisma wraps the driver adapter's error (and may pass on the adapter's own).
  const cause = name === "DriverAdapterError" ? (error as StoreErrorShape).cause : meta?.driverAdapterError?.cause;
  if (typeof cause?.kind === "string" && UNAVAILABLE_KINDS.has(cause.kind)) return true;
  if (typeof cause?.originalCode === "string" && UNAVAILABLE_SQLSTATE.test(cause.originalCode)) return true;
  return typeof message === "string" && UNAVAILABLE_MESSAGES.some((text) => message.includes(text));
}
