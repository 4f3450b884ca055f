// ISteamMicroTxn[Sandbox]/InitTxn v3 (reference 3.5, simulator contract in reference 7): validates
// the cart, then opens an order in `Init`, as Steam does before showing the overlay, or, for
// usersession=web, answers the steamurl where the player approves it in a browser (reference 3.1).

import { isIPv4 } from "node:net";
import {
  isUint64,
  missingParam,
  parseUint32,
  type SimAnswer,
  type SimRequest,
  txnFailure,
  txnOk,
} from "./sim-answer.js";
import { checkAppScope } from "./sim-app-scope.js";
import { type Iface, nowSeconds, type SimOrderItem, type SimState } from "./sim-state.js";
import { steamUrl } from "./sim-web-checkout.js";

// Reference 3.11: live currencies and the ones whose amounts must be whole multiples.
const CURRENCIES = new Set(
  "AED AUD BRL CAD CHF CLP CNY COP CRC EUR GBP HKD ILS IDR INR JPY KRW KWD KZT MXN MYR NOK NZD PEN PHP PLN QAR RUB SAR SGD THB TWD UAH USD UYU VND ZAR".split(
    " ",
  ),
);
const INCREMENTS: Readonly<Record<string, number>> = {
  ...Object.fromEntries("CLP COP IDR INR JPY KZT TWD UAH UYU".split(" ").map((code) => [code, 100])),
  CRC: 500,
  KRW: 1000,
  VND: 50000,
};
// Reference 3.12: the Web API codes, plus the bare two-letter forms seen accepted.
const LANGUAGES = new Set(
  "ar bg zh zh-CN zh-TW cs da nl en fi fr de el hu id it ja ko no pl pt pt-BR ro ru es es-419 sv th tr uk vi".split(
    " ",
  ),
);

export function initTxn(state: SimState, req: SimRequest, iface: Iface): SimAnswer {
  const scope = checkAppScope(state, req, ["orderid", "steamid", "appid", "itemcount", "language", "currency"]);
  if ("answer" in scope) return scope.answer;
  const { params } = req;
  const orderid = params.get("orderid") ?? "";
  const echo = { orderid };
  const items = readItems(params);
  if ("missing" in items) return missingParam(items.missing);
  const currency = params.get("currency") ?? "";
  const steamid = params.get("steamid") ?? "";
  const session = params.get("usersession") || "client";
  // A web order needs the player's IPv4 address (reference 3.5: `ipaddress` "if web").
  const web = session === "web";
  const valid =
    (session === "client" || (web && isIPv4(params.get("ipaddress") ?? ""))) &&
    isUint64(orderid) &&
    isUint64(steamid) &&
    items.list !== undefined &&
    CURRENCIES.has(currency) &&
    LANGUAGES.has(params.get("language") ?? "") &&
    items.list.every((item) => item.amount % (INCREMENTS[currency] ?? 1) === 0);
  if (!valid || items.list === undefined) return txnFailure(3, echo);
  const book = state.orders[iface];
  // Reusing an orderid: the real code is unconfirmed; the contract picks 3 (reference 7).
  if (book.has(orderid)) return txnFailure(3, echo);
  const player = state.players.get(steamid);
  if (player === undefined) return txnFailure(9, echo);
  if (player.status === "Locked") return txnFailure(103, echo);
  const now = nowSeconds();
  const transid = String(state.nextTransid++);
  // A player who approves at once (autoApprove) has already answered the overlay; a web order
  // waits for its approval page all the same.
  const approved = player.autoApprove && !web;
  book.set(orderid, {
    orderid,
    transid,
    appid: scope.appid,
    steamid,
    session: web ? "web" : "client",
    status: approved ? "Approved" : "Init",
    declined: false,
    currency,
    language: params.get("language") ?? "",
    country: player.country,
    usstate: player.state,
    timecreated: now,
    time: now,
    items: approved ? items.list.map((item) => ({ ...item, itemstatus: "Approved" })) : items.list,
  });
  return txnOk(web ? { orderid, transid, steamurl: steamUrl(state, transid) } : { orderid, transid });
}

type ReadItems = { readonly missing: string } | { readonly list: SimOrderItem[] | undefined };

// Array parameters are `name[n]` with `itemcount` (reference 1.3); URLSearchParams has already
// decoded `itemid%5B0%5D` into `itemid[0]`, so both spellings arrive the same.
function readItems(params: URLSearchParams): ReadItems {
  const count = parseUint32(params.get("itemcount"));
  if (count === undefined || count === 0 || count > 100) return { list: undefined };
  const list: SimOrderItem[] = [];
  for (let n = 0; n < count; n++) {
    for (const name of ["itemid", "qty", "amount", "description"]) {
      if ((params.get(`${name}[${n}]`) ?? "") === "") return { missing: `${name}[${n}]` };
    }
    const itemid = parseUint32(params.get(`itemid[${n}]`));
    const qty = parseUint32(params.get(`qty[${n}]`));
    const amount = parseUint32(params.get(`amount[${n}]`));
    const description = params.get(`description[${n}]`) ?? "";
    const category = params.get(`category[${n}]`) ?? "";
    // v3 enforces 16-bit qty; description <= 128 and category <= 64 characters (reference 3.5).
    if (itemid === undefined || qty === undefined || qty < 1 || qty > 32767 || amount === undefined)
      return { list: undefined };
    if ([...description].length > 128 || [...category].length > 64) return { list: undefined };
    list.push({ itemid, qty, amount, description, category, itemstatus: "Init" });
  }
  return { list };
}
