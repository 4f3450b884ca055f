// Accounts, API keys and members page by id alone: ids sort in creation order
// (core/ids.ts), so the cursor is the last id of the previous page.

export interface IdPage {
  take: number;
  /** The last id of the previous page; undefined on the first page. */
  after: string | undefined;
}

/** The `where` part of a page that starts after `after`. */
export function afterId(after: string | undefined): { id?: { gt: string } } {
  return after === undefined ? {} : { id: { gt: after } };
}
