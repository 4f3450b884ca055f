// Paging through the platform's report (reference 3.9), pure. The report lists orders updated at
// or after `time`; the next call starts at the latest `time` of the batch, so orders at exactly
// that second come again. The cursor remembers which of them were applied, which also tells a
// drained report (nothing new) from a page that only repeated them.

/** Reference 3.9: `maxresults` at most 50000. */
export const MAX_REPORT_RESULTS = 50_000;

export interface CursorState {
  /** RFC 3339 UTC as the report spells it. */
  reportTime: string;
  /** Orders already applied whose last update is exactly `reportTime` (as seenKey spells them). */
  seenOrderIds: readonly string[];
  maxResults: number;
}

export interface PagedOrder {
  orderid: string;
  /** RFC 3339 UTC: the order's last update. */
  time: string;
  status: string;
  items: readonly { itemStatus: string }[];
}

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);

/**
 * How the cursor remembers an order applied at its second: the order with its statuses, since
 * the report's times are whole seconds and an order refunded within the second it settled
 * keeps its `time` but is news.
 */
export function seenKey(order: PagedOrder): string {
  return [order.orderid, order.status, ...order.items.map((item) => item.itemStatus)].join(" ");
}

/** The orders of a page not applied yet. */
export function freshOrders<T extends PagedOrder>(cursor: CursorState, page: readonly T[]): T[] {
  const seen = new Set(cursor.seenOrderIds);
  return page.filter((order) => !(sameInstant(order.time, cursor.reportTime) && seen.has(seenKey(order))));
}

/**
 * Where the next page starts once this one is applied, and whether the report is drained.
 * A page with nothing new is the end, unless it was full of orders at the cursor's one second:
 * paging by time cannot pass those, so the next call asks for more at once (doubling, up to
 * the reference's maximum). `baseMaxResults` is the page size once time moves on.
 */
export function nextCursor(
  cursor: CursorState,
  page: readonly PagedOrder[],
  baseMaxResults: number,
): { cursor: CursorState; drained: boolean } {
  if (freshOrders(cursor, page).length === 0) {
    const full = page.length >= cursor.maxResults && cursor.maxResults < MAX_REPORT_RESULTS;
    if (!full) return { cursor, drained: true };
    return {
      cursor: { ...cursor, maxResults: Math.min(cursor.maxResults * 2, MAX_REPORT_RESULTS) },
      drained: false,
    };
  }
  let latest = cursor.reportTime;
  for (const order of page) if (Date.parse(order.time) > Date.parse(latest)) latest = order.time;
  const atLatest = page.filter((order) => sameInstant(order.time, latest)).map(seenKey);
  const stayed = sameInstant(latest, cursor.reportTime);
  const seen = stayed ? [...new Set([...cursor.seenOrderIds, ...atLatest])] : atLatest;
  return {
    cursor: { reportTime: latest, seenOrderIds: seen, maxResults: stayed ? cursor.maxResults : baseMaxResults },
    drained: false,
  };
}

/** RFC 3339 UTC in whole seconds, as the report spells times; where a first pass starts. */
export function reportTimeOf(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
