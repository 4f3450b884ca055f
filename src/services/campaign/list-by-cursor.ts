import type { ServiceDeps } from "../../core/deps.js";
import type { Page, PageCursor } from "../../core/page-token.js";
import { type ListRequest, listPage } from "../list-page.js";

/** One page of a list whose rows carry their own sort key (`pageCursor`), in the store's order. */
export function listByCursor<Row extends { pageCursor: PageCursor }>(
  deps: Pick<ServiceDeps, "pageTokens">,
  request: ListRequest,
  list: { scope: string; load(page: { after: PageCursor | undefined; take: number }): Promise<Row[]> },
): Promise<Page<Row>> {
  return listPage(deps, request, { ...list, cursorOf: (row) => row.pageCursor });
}
