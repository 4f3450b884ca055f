import { describe, expect, it } from "vitest";
import { freshOrders, MAX_REPORT_RESULTS, nextCursor, reportTimeOf } from "../../src/domain/report-cursor.js";

const T0 = "2026-05-01T12:00:00Z";
const T1 = "2026-05-01T12:00:01Z";
const T2 = "2026-05-01T12:00:02Z";
const at = (orderid: string, time: string, status = "Succeeded") => ({ orderid, time, status, items: [] });
const key = (orderid: string, status = "Succeeded") => `${orderid} ${status}`;

describe("report paging (reference 3.9)", () => {
  const start = { reportTime: T0, seenOrderIds: [], maxResults: 2 };

  it("moves to the latest time of the page and remembers the orders at it", () => {
    const page = [at("1", T1), at("2", T2)];
    expect(nextCursor(start, page, 2)).toEqual({
      cursor: { reportTime: T2, seenOrderIds: [key("2")], maxResults: 2 },
      drained: false,
    });
  });

  it("skips the orders it already applied at the cursor's time, and is drained by a page of only them", () => {
    const cursor = { reportTime: T2, seenOrderIds: [key("2")], maxResults: 2 };
    expect(freshOrders(cursor, [at("2", T2), at("3", T2)])).toEqual([at("3", T2)]);
    expect(nextCursor(cursor, [at("2", T2), at("3", T2)], 2).cursor.seenOrderIds).toEqual([key("2"), key("3")]);
    expect(nextCursor(cursor, [at("2", T2)], 2)).toEqual({ cursor, drained: true });
    expect(nextCursor(cursor, [], 2)).toEqual({ cursor, drained: true });
  });

  it("sees an order again once it changes, later or within the same second", () => {
    const cursor = { reportTime: T1, seenOrderIds: [key("1")], maxResults: 2 };
    expect(freshOrders(cursor, [at("1", T2)])).toEqual([at("1", T2)]);
    expect(freshOrders(cursor, [at("1", T1, "Refunded")])).toEqual([at("1", T1, "Refunded")]);
    expect(freshOrders(cursor, [at("1", T1)])).toEqual([]);
  });

  it("asks for more at once when a full page holds only orders at the cursor's second", () => {
    const cursor = { reportTime: T1, seenOrderIds: [key("1"), key("2")], maxResults: 2 };
    expect(nextCursor(cursor, [at("1", T1), at("2", T1)], 2)).toEqual({
      cursor: { ...cursor, maxResults: 4 },
      drained: false,
    });
    const widest = { ...cursor, maxResults: MAX_REPORT_RESULTS };
    expect(nextCursor(widest, [at("1", T1), at("2", T1)], 2).drained).toBe(true);
  });

  it("goes back to the base page size once time moves on", () => {
    const cursor = { reportTime: T1, seenOrderIds: [key("1"), key("2")], maxResults: 4 };
    expect(nextCursor(cursor, [at("1", T1), at("2", T1), at("3", T1), at("4", T2)], 2).cursor).toEqual({
      reportTime: T2,
      seenOrderIds: [key("4")],
      maxResults: 2,
    });
  });

  it("spells a start time in whole seconds", () => {
    expect(reportTimeOf(new Date("2026-05-01T12:00:00.987Z"))).toBe(T0);
  });
});
