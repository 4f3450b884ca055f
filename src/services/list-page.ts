import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../core/deps.js";
import { type Page, type PageCursor, readPageSize } from "../core/page-token.js";
import type { Permission } from "../domain/permissions.js";
import type { IdPage } from "../store/id-page.js";
import type { Db } from "../store/open-database.js";
import { authorizeParent } from "./management-access.js";

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

export interface AccountList<Row> {
  permission: Permission;
  /** The list's name in its page tokens; the account is added to it. */
  scope: string;
  /** One page of the account's rows in id order. */
  load(db: Db, accountId: string, page: IdPage): Promise<Row[]>;
  /** Words the NOT_FOUND (the account service names the account in its own words). */
  missing?: (name: string) => string;
}

/** One page of a `parent` account's resources in id order, once the caller may list them there. */
export function listAccountPage<Row extends { id: string }>(
  deps: Pick<ServiceDeps, "pageTokens" | "db">,
  ctx: HandlerContext,
  request: ListRequest & { parent: string },
  list: AccountList<Row>,
): Promise<Page<Row>> {
  const accountId = authorizeParent(ctx, list.permission, request.parent, list.missing);
  return listById(deps, request, {
    scope: `${list.scope}:${accountId}`,
    load: (page) => list.load(deps.db, accountId, page),
  });
}

export interface AccountListMethod<Row, Item, Field extends string> extends Omit<AccountList<Row>, "scope"> {
  /** The response's repeated field, which also names the list in its page tokens. */
  field: Field;
  toItem(row: Row): Item;
}

/** A List method of a `parent` account's resources, paged by id (creation order). */
export function listInAccount<Row extends { id: string }, Item, Field extends string>(
  deps: Pick<ServiceDeps, "pageTokens" | "db">,
  list: AccountListMethod<Row, Item, Field>,
) {
  return async (
    request: ListRequest & { parent: string },
    ctx: HandlerContext,
  ): Promise<Record<Field, Item[]> & { nextPageToken: string }> => {
    const page = await listAccountPage(deps, ctx, request, { ...list, scope: list.field });
    const items = page.items.map((row) => list.toItem(row));
    return { [list.field]: items, nextPageToken: page.nextPageToken } as Record<Field, Item[]> & {
      nextPageToken: string;
    };
  };
}
