import { Prisma } from "../../gen/prisma/client.js";
import type { Db } from "./open-database.js";

// Keyset pages over (create_time, id). The cursor carries create_time as text with its
// microseconds: a JS Date holds only milliseconds, and a truncated cursor would repeat or
// skip rows created within the same millisecond.

/** The tables listed this way; a closed set, so no table name ever comes from a caller. */
export type PagedTable = "distributor_links" | "settlements" | "campaigns" | "offers" | "purchases";

export interface KeysetList {
  table: PagedTable;
  /** The list's scope, e.g. Prisma.sql`account_id = ${accountId}`. */
  where: Prisma.Sql;
  direction: "oldestFirst" | "newestFirst";
}

/** Which page of a keyset list. */
export interface KeysetPageRequest {
  /** [createTimeText, id] of the last row of the previous page. */
  after: readonly string[] | undefined;
  take: number;
}

/** `column`, a timestamptz, as a cursor's text: UTC with its microseconds. */
export function cursorText(column: string): Prisma.Sql {
  return Prisma.sql`to_char(${Prisma.raw(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export interface PageKey {
  id: string;
  /** create_time, UTC, microseconds: the cursor's first half. */
  createTimeText: string;
}

async function pageKeys(db: Db, list: KeysetList, { after, take }: KeysetPageRequest): Promise<PageKey[]> {
  const { table, where, direction } = list;
  const newest = direction === "newestFirst";
  const order = newest ? Prisma.sql`create_time DESC, id DESC` : Prisma.sql`create_time ASC, id ASC`;
  const afterCursor =
    after === undefined
      ? Prisma.empty
      : newest
        ? Prisma.sql`AND (create_time, id) < (${after[0]}::timestamptz, ${after[1]})`
        : Prisma.sql`AND (create_time, id) > (${after[0]}::timestamptz, ${after[1]})`;
  return db.$queryRaw<PageKey[]>`
    SELECT id, ${cursorText("create_time")} AS "createTimeText"
      FROM ${Prisma.raw(table)}
     WHERE ${where} ${afterCursor}
     ORDER BY ${order}
     LIMIT ${take}`;
}

export type Paged<T> = T & { pageCursor: readonly string[] };

/** Rows loaded by id, put back in the page's order, each with its cursor. */
function inPageOrder<T extends { id: string }>(keys: readonly PageKey[], rows: readonly T[]): Paged<T>[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return keys.flatMap((key) => {
    const row = byId.get(key.id);
    return row === undefined ? [] : [{ ...row, pageCursor: [key.createTimeText, key.id] }];
  });
}

/** One keyset page: its keys, then `load` reads those rows by id, returned in page order. */
export async function keysetPage<T extends { id: string }>(
  db: Db,
  list: KeysetList,
  page: KeysetPageRequest,
  load: (ids: string[]) => Promise<T[]>,
): Promise<Paged<T>[]> {
  const keys = await pageKeys(db, list, page);
  return inPageOrder(keys, await load(keys.map((key) => key.id)));
}
