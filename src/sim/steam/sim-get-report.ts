// GetReport v5 on ISteamMicroTxn[Sandbox] (reference 3.9): the reconciliation feed. Orders whose
// last update (`time`) is at or after the `time` parameter, oldest first, at most `maxresults`.
// Paging is the caller's: the next call starts at the latest `time` of the batch, so orders at
// exactly that second come again (the reference's own rule).

import { parseUint32, type SimAnswer, type SimRequest, txnFailure, txnOk } from "./sim-answer.js";
import { checkAppScope } from "./sim-app-scope.js";
import type { Iface, SimOrder, SimState } from "./sim-state.js";
import { renderOrder } from "./sim-txn-handlers.js";

const DEFAULT_MAX_RESULTS = 1000;
const MAX_RESULTS = 50000;

// Settled in-game orders: captured, or captured and later reversed (reference 3.2).
const SETTLED: ReadonlySet<string> = new Set(
  "Succeeded Refunded PartialRefund Chargedback RefundedSuspectedFraud RefundedFriendlyFraud".split(" "),
);

// Which orders each report type lists (reference 3.9). The simulator sells no store packages
// and no subscriptions, so those two types are always empty. The default type when `type` is
// absent is unconfirmed; the simulator picks GAMESALES.
const TYPES: Readonly<Record<string, (order: SimOrder) => boolean>> = {
  GAMESALES: () => true,
  STEAMSTORESALES: () => false,
  SETTLEMENT: (order) => SETTLED.has(order.status),
  CHARGEBACK: (order) => order.status === "Chargedback",
  SUBSCRIPTION: () => false,
};

const RFC3339_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

export function getReport(state: SimState, req: SimRequest, iface: Iface): SimAnswer {
  const scope = checkAppScope(state, req, ["appid", "time"]);
  if ("answer" in scope) return scope.answer;
  const time = req.params.get("time") ?? "";
  const from = RFC3339_UTC.test(time) ? Date.parse(time) : Number.NaN;
  const listed = TYPES[req.params.get("type") ?? "GAMESALES"];
  const max = req.params.has("maxresults") ? parseUint32(req.params.get("maxresults")) : DEFAULT_MAX_RESULTS;
  if (Number.isNaN(from) || listed === undefined || max === undefined || max < 1 || max > MAX_RESULTS)
    return txnFailure(3);
  const orders = [...state.orders[iface].values()]
    .filter((order) => order.appid === scope.appid && listed(order) && Date.parse(order.time) >= from)
    .sort(byTimeThenOrder)
    .slice(0, max)
    .map(renderReportOrder);
  return txnOk({ count: orders.length, orders });
}

function byTimeThenOrder(a: SimOrder, b: SimOrder): number {
  const byTime = Date.parse(a.time) - Date.parse(b.time);
  if (byTime !== 0) return byTime;
  return a.orderid.length - b.orderid.length || (a.orderid < b.orderid ? -1 : a.orderid > b.orderid ? 1 : 0);
}

// Valve's example shape (reference 3.9): QueryTxn's order (3.6) and the order's creation time.
function renderReportOrder(order: SimOrder): object {
  return { ...renderOrder(order), timecreated: order.timecreated };
}
