import type { ServiceDeps } from "../core/deps.js";
import { type Page, type PageCursor, readPageSize } from "../core/page-token.js";
import type { IdPage } from "../store/id-page.js";

// Every List method pages the same way (AIP-158): the page size read, the token decoded for the
// list's scope, one row more than the page read to learn whether another page follows, and the
// next token made from the last row kept.

export interface ListRequest {
  pageSize: number;
  pageToken: string;
}

export interface ListOf<Row> {
  /** Names the list (its parent, its filter) in its page tokens, so a token of another list is refused. */
  scope: string;
  /** At most `take` rows after `after` (undefined: from the start), in the list's order. */
  load(page: { after: PageCursor | undefined; take: number }): Promise<Row[]>;
  /** The sort key of a row, which the next page starts after. */
  cursorOf(row: Row): PageCursor;
}

export async function listPage<Row>(
  deps: Pick<ServiceDeps, "pageTokens">,
  request: ListRequest,
  list: ListOf<Row>,
): Promise<Page<Row>> {
  const { pageTokens } = deps;
  const size = readPageSize(request.pageSize);
  const rows = await list.load({ after: pageTokens.decode(list.scope, request.pageToken), take: size + 1 });
  return pageTokens.page({ scope: list.scope, rows, size, cursorOf: list.cursorOf });
}

/** A list paged by id alone (store/id-page.ts: ids sort in creation order). */
export function listById<Row extends { id: string }>(
  deps: Pick<ServiceDeps, "pageTokens">,
  request: ListRequest,
  list: { scope: string; load(page: IdPage): Promise<Row[]> },
): Promise<Page<Row>> {
  return listPage(deps, request, {
    scope: list.scope,
    load: ({ after, take }) => list.load({ take, after: after?.[0] }),
    cursorOf: (row) => [row.id],
  });
}
