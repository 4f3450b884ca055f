import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { invalidArgument } from "../errors/status.js";
import type { MasterKeys } from "./secret-box.js";

// List pagination (AIP-158): keyset pages, never offsets, so rows written between two calls
// neither repeat nor vanish. A token is base64url JSON of the last row's sort key followed by
// an HMAC over the list's scope: opaque to callers, and a token that was altered or issued for
// another list (other parent, other filter) is refused INVALID_ARGUMENT instead of quietly
// paging somewhere else.

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** The sort key of the last row of a page, e.g. `[row.id]` or `[createTimeText, row.id]`. */
export type PageCursor = readonly string[];

export interface Page<T> {
  items: T[];
  /** Empty on the last page. */
  nextPageToken: string;
}

export interface PageTokens {
  /** The cursor of `token` for the list named by `scope`; undefined for the first page (""). */
  decode(scope: string, token: string): PageCursor | undefined;
  /** A token naming the position after `cursor` in the list named by `scope`. */
  encode(scope: string, cursor: PageCursor): string;
  /**
   * Cuts `rows` (read with `take: size + 1`) to one page and makes the next token from the
   * last row kept; no token when there was no extra row.
   */
  page<T>(options: { scope: string; rows: T[]; size: number; cursorOf: (row: T) => PageCursor }): Page<T>;
}

const MAC_BYTES = 16;

/**
 * Page tokens signed with a key derived from the current master key; a token signed under the
 * previous one is still accepted during a rotation (docs/deploy.md), so no caller's paging
 * breaks while replicas change keys.
 */
export function createPageTokens(masterKeys: MasterKeys): PageTokens {
  const derive = (secret: Buffer) => Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "encore page tokens", 32));
  const signing = derive(masterKeys.current);
  const accepted = [signing, ...(masterKeys.previous ? [derive(masterKeys.previous)] : [])];
  const macUnder = (key: Buffer, scope: string, payload: string) =>
    createHmac("sha256", key).update(scope).update("\n").update(payload).digest().subarray(0, MAC_BYTES);

  const encode = (scope: string, cursor: PageCursor) => {
    const payload = Buffer.from(JSON.stringify(cursor)).toString("base64url");
    return `${payload}.${macUnder(signing, scope, payload).toString("base64url")}`;
  };

  const decode = (scope: string, token: string): PageCursor | undefined => {
    if (token === "") return undefined;
    const [payload, signature, extra] = token.split(".");
    if (!payload || !signature || extra !== undefined) throw badToken();
    const given = Buffer.from(signature, "base64url");
    if (given.length !== MAC_BYTES) throw badToken();
    if (!accepted.some((key) => timingSafeEqual(given, macUnder(key, scope, payload)))) throw badToken();
    const cursor: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(cursor) || !cursor.every((part) => typeof part === "string")) throw badToken();
    return cursor;
  };

  return {
    encode,
    decode,
    page({ scope, rows, size, cursorOf }) {
      if (rows.length <= size) return { items: rows, nextPageToken: "" };
      const items = rows.slice(0, size);
      const last = items[items.length - 1];
      return { items, nextPageToken: last === undefined ? "" : encode(scope, cursorOf(last)) };
    },
  };
}

/** `page_size`: 0 means the default; negative is refused; above the maximum is capped (AIP-158). */
export function readPageSize(pageSize: number): number {
  if (pageSize < 0) throw invalidArgument('"pageSize" must not be negative.');
  if (pageSize === 0) return DEFAULT_PAGE_SIZE;
  return Math.min(pageSize, MAX_PAGE_SIZE);
}

function badToken() {
  return invalidArgument('"pageToken" is not a token this list issued.');
}
