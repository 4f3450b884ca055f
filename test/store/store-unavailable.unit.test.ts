import { describe, expect, it } from "vitest";
import { isStoreUnavailable } from "../../src/store/store-unavailable.js";

// The driver adapter's own error, as Prisma may pass it on.
function adapterError(cause: Record<string, unknown>): Error {
  const error = new Error(String(cause.kind)) as Error & { cause: unknown };
  error.name = "DriverAdapterError";
  error.cause = cause;
  return error;
}

// PostgreSQL's own report, as pg's DatabaseError carries it (SQLSTATE as code, a severity).
function databaseError(code: string): Error {
  return Object.assign(new Error("from PostgreSQL"), { name: "error", code, severity: "FATAL" });
}

describe("isStoreUnavailable", () => {
  it("reads a database that does not answer from the driver adapter's own error", () => {
    expect(isStoreUnavailable(adapterError({ kind: "DatabaseNotReachable", host: "db", port: 5432 }))).toBe(true);
    expect(isStoreUnavailable(adapterError({ kind: "postgres", originalCode: "57P01" }))).toBe(true);
  });

  it("reads a database that does not answer from pg's own errors", () => {
    expect(isStoreUnavailable(databaseError("57P01"))).toBe(true);
    expect(isStoreUnavailable(databaseError("53300"))).toBe(true);
    expect(isStoreUnavailable(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
  });

  it("reads the same from Prisma's wrapping of it", () => {
    const wrapped = { code: "P2010", meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } } };
    expect(isStoreUnavailable(wrapped)).toBe(true);
  });

  it("does not mistake a constraint or a syntax error for an outage", () => {
    expect(isStoreUnavailable(adapterError({ kind: "UniqueConstraintViolation", originalCode: "23505" }))).toBe(false);
    expect(isStoreUnavailable(adapterError({ kind: "postgres", originalCode: "42601" }))).toBe(false);
    expect(isStoreUnavailable(databaseError("23505"))).toBe(false);
    expect(isStoreUnavailable(databaseError("40001"))).toBe(false);
  });
});
