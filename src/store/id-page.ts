// Accounts, API keys, members, webhook endpoints, games, projects and resources page by id alone: ids sort in creation order
// (core/ids.ts), so the cursor is the last id of the previous page.

export interface IdPage {
  take: number;
  /** The last id of the previous page; undefined on the first page. */
  after: string | undefined;
}

/** findMany's arguments for one page within `where`: the rows after `after`, in id order, at most `take`. */
export function idPageQuery<Where extends object>(where: Where, { take, after }: IdPage) {
  return {
    where: { ...where, ...(after === undefined ? {} : { id: { gt: after } }) },
    orderBy: { id: "asc" as const },
    take,
  };
}
