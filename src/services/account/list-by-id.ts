import type { IdPage } from "../../store/id-page.js";
import { type Page, type PageTokens, readPageSize } from "../page-token.js";

export interface ListByIdOptions<Row> {
  /** Names the list in its page tokens, so a token of another list is refused. */
  scope: string;
  pageSize: number;
  pageToken: string;
  load(page: IdPage): Promise<Row[]>;
}

/** One page of a list paged by id alone (store/id-page.ts): accounts, API keys, members. */
export async function listById<Row extends { id: string }>(
  pages: PageTokens,
  options: ListByIdOptions<Row>,
): Promise<Page<Row>> {
  const { scope } = options;
  const size = readPageSize(options.pageSize);
  const after = pages.decode(scope, options.pageToken)?.[0];
  const rows = await options.load({ take: size + 1, after });
  return pages.page({ scope, rows, size, cursorOf: (row) => [row.id] });
}
