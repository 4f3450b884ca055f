import type { DatabaseTarget } from "../store/open-database.js";
import { redactUrl } from "./redact-url.js";
import { StartupFailure } from "./startup-failure.js";

const CONNECTION_CODES = new Set("ECONNREFUSED ENOTFOUND EAI_AGAIN ETIMEDOUT EHOSTUNREACH ENETUNREACH".split(" "));

/** Opening or migrating the database failed: one line naming DATABASE_URL or DATA_DIR. */
export function databaseFailure(error: unknown, target: DatabaseTarget): StartupFailure {
  if (error instanceof StartupFailure) return error;
  const { code, message } = describe(error);
  if (target.kind === "pglite") {
    return new StartupFailure(`DATA_DIR ${target.dataDir ?? ""}: the embedded database cannot be opened: ${message}`);
  }
  const url = redactUrl(target.url);
  const database = databaseName(target.url);
  if (code === "3D000") {
    return new StartupFailure(
      `DATABASE_URL ${url}: database "${database}" does not exist; create it first (createdb ${database}, or CREATE DATABASE "${database}")`,
    );
  }
  if (code === "28P01" || code === "28000") {
    return new StartupFailure(`DATABASE_URL ${url}: the server refused the credentials (${message})`);
  }
  if (code && CONNECTION_CODES.has(code)) {
    return new StartupFailure(`DATABASE_URL ${url}: the database server is unreachable (${code})`);
  }
  return new StartupFailure(`DATABASE_URL ${url}: the database could not be opened or migrated: ${message}`);
}

function databaseName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1)) || "postgres";
  } catch {
    return "";
  }
}

// pg rejects with an AggregateError (no message) when every address of a host refuses.
function describe(error: unknown): { code: string | undefined; message: string } {
  const first = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const code = (first as { code?: unknown } | undefined)?.code;
  const message = first instanceof Error ? first.message : String(first);
  return { code: typeof code === "string" ? code : undefined, message: message.split("\n")[0] ?? "" };
}
