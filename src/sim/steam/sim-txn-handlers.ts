// GetUserInfo, QueryTxn and FinalizeTxn on ISteamMicroTxn[Sandbox] (reference 3.4, 3.6, 3.7),
// with the FinalizeTxn state machine of reference 7.

import { isUint64, missingParam, type SimAnswer, type SimRequest, txnFailure, txnOk } from "./sim-answer.js";
import { checkAppScope } from "./sim-app-scope.js";
import { type Iface, nowSeconds, type SimOrder, type SimState } from "./sim-state.js";

export function getUserInfo(state: SimState, req: SimRequest): SimAnswer {
  const scope = checkAppScope(state, req, ["appid"]);
  if ("answer" in scope) return scope.answer;
  const steamid = req.params.get("steamid");
  // Reference 3.4: no wallet, not logged in and no ipaddress -> "not logged in" (7).
  if (steamid === null || steamid === "") return txnFailure(7);
  const player = state.players.get(steamid);
  if (player === undefined) return txnFailure(9);
  return txnOk({ state: player.state, country: player.country, currency: player.currency, status: player.status });
}

export function queryTxn(state: SimState, req: SimRequest, iface: Iface): SimAnswer {
  const scope = checkAppScope(state, req, ["appid"]);
  if ("answer" in scope) return scope.answer;
  const orderid = req.params.get("orderid");
  const transid = req.params.get("transid");
  // One of orderid / transid is required (reference 3.6).
  if (!orderid && !transid) return missingParam("orderid");
  const order = findOrder(state, iface, scope.appid, { orderid, transid });
  // Unknown order: the real code is unconfirmed; the contract picks 3 (reference 3.6).
  return order === undefined ? txnFailure(3, orderid ? { orderid } : undefined) : txnOk(renderOrder(order));
}

export function finalizeTxn(state: SimState, req: SimRequest, iface: Iface): SimAnswer {
  const scope = checkAppScope(state, req, ["orderid", "appid"]);
  if ("answer" in scope) return scope.answer;
  const orderid = req.params.get("orderid") ?? "";
  const order = findOrder(state, iface, scope.appid, { orderid, transid: null });
  if (order === undefined) return txnFailure(3, { orderid });
  const ids = { orderid, transid: order.transid };
  if (order.status === "Init") return txnFailure(5, ids);
  if (order.status === "Failed") return txnFailure(order.declined ? 10 : 101, ids);
  if (order.status !== "Approved") return txnFailure(6, ids);
  // Finalizing captures the funds: the order succeeds once (reference 3.7).
  setOrderStatus(order, "Succeeded");
  return txnOk(ids);
}

export function setOrderStatus(
  order: SimOrder,
  status: string,
  later: { items?: readonly { itemid: number; status: string }[]; time?: string } = {},
): void {
  order.status = status;
  order.time = later.time ?? nowSeconds();
  for (const item of order.items) {
    if (later.items === undefined) item.itemstatus = status;
    else item.itemstatus = later.items.find((named) => named.itemid === item.itemid)?.status ?? "Succeeded";
  }
}

function findOrder(
  state: SimState,
  iface: Iface,
  appid: number,
  ids: { orderid: string | null; transid: string | null },
): SimOrder | undefined {
  const book = state.orders[iface];
  const byOrder = ids.orderid && isUint64(ids.orderid) ? book.get(ids.orderid) : undefined;
  const order = byOrder ?? [...book.values()].find((o) => ids.transid !== null && o.transid === ids.transid);
  return order?.appid === appid ? order : undefined;
}

// QueryTxn params (reference 3.6): ids as strings, money as numbers; amount excludes VAT, and the
// simulator charges no VAT.
export function renderOrder(order: SimOrder): object {
  return {
    orderid: order.orderid,
    transid: order.transid,
    steamid: order.steamid,
    status: order.status,
    currency: order.currency,
    time: order.time,
    country: order.country,
    usstate: order.usstate,
    items: order.items.map((item) => ({
      itemid: item.itemid,
      qty: item.qty,
      amount: item.amount,
      vat: 0,
      itemstatus: item.itemstatus,
    })),
  };
}
