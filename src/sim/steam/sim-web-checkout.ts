// Steam's web checkout (reference 3.1 "Web flow"): InitTxn with usersession=web answers a
// steamurl; the browser comes there with `returnurl`, the player approves or declines, and the
// browser is sent back to returnurl. Nothing is captured here: FinalizeTxn still does that.

import type { SimAnswer } from "./sim-answer.js";
import { badRequestPage, escapeHtml, hiddenFields, htmlPage, httpUrl } from "./sim-html.js";
import type { SimOrder, SimState } from "./sim-state.js";
import { setOrderStatus } from "./sim-txn-handlers.js";

const CHECKOUT_PATH = "/checkout/approvetxn/";

/** The steamurl InitTxn answers for a web order. */
export function steamUrl(state: SimState, transid: string): string {
  return `${state.origin}${CHECKOUT_PATH}${transid}/`;
}

/** The transid in a checkout path, or undefined when the path is not one. */
export function checkoutTransid(pathname: string): string | undefined {
  return /^\/checkout\/approvetxn\/(\d{1,20})\/?$/.exec(pathname)?.[1];
}

// The answers a player can give, and from which statuses (reference 3.1 step 4, reference 7 hooks);
// the overlay's and the web page's leave the order alike.
const ANSWERS = {
  approve: { from: ["Init"], to: "Approved", declined: false },
  decline: { from: ["Init"], to: "Failed", declined: true },
  expire: { from: ["Init", "Approved"], to: "Failed", declined: false },
} as const;

export type OrderAnswer = keyof typeof ANSWERS;

/** Moves the order as the answer says; false when the order is no longer open to it. */
export function answerOrder(order: SimOrder, answer: OrderAnswer): boolean {
  const rule = ANSWERS[answer];
  if (!(rule.from as readonly string[]).includes(order.status)) return false;
  setOrderStatus(order, rule.to);
  order.declined = rule.declined;
  return true;
}

/** GET steamurl?returnurl=...: the order's lines and total, with Approve and Decline. */
export function checkoutPage(state: SimState, transid: string, query: URLSearchParams): SimAnswer {
  const order = findWebOrder(state, transid);
  if (order === undefined) return htmlPage(404, "No such order", "<p>This purchase does not exist.</p>");
  const returnUrl = httpUrl(query.get("returnurl"));
  if (returnUrl === undefined) return badRequestPage("returnurl must be an absolute http(s) URL.");
  const app = state.apps.get(order.appid)?.name ?? `App ${order.appid}`;
  if (order.status !== "Init")
    return htmlPage(
      200,
      "Purchase already answered",
      `<p>This purchase in ${escapeHtml(app)} is ${escapeHtml(order.status)}.</p>` +
        `<p><a href="${escapeHtml(returnUrl.href)}">Return to the site</a></p>`,
    );
  const rows = order.items
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.description)}</td><td>${item.qty}</td>` +
        `<td class="amount">${money(item.amount, order.currency)}</td></tr>`,
    )
    .join("");
  const total = order.items.reduce((sum, item) => sum + item.amount, 0);
  const body =
    `<p>Purchase in <strong>${escapeHtml(app)}</strong> for Steam account ${escapeHtml(order.steamid)}.</p>` +
    `<table><caption class="note">Order ${escapeHtml(order.orderid)}</caption>` +
    `<thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col" class="amount">Amount</th></tr></thead>` +
    `<tbody>${rows}</tbody>` +
    `<tfoot><tr><th scope="row" colspan="2">Total</th><td class="amount">${money(total, order.currency)}</td></tr></tfoot></table>` +
    `<form method="post" action="${CHECKOUT_PATH}${escapeHtml(order.transid)}/">` +
    hiddenFields([["returnurl", returnUrl.href]]) +
    `<div class="actions"><button class="primary" type="submit" name="action" value="approve">Approve</button>` +
    `<button class="secondary" type="submit" name="action" value="decline">Decline</button></div></form>`;
  return htmlPage(200, "Approve your purchase", body);
}

/** POST of the page: the answer is recorded (once: a later one changes nothing), then 303 to returnurl. */
export function submitCheckout(state: SimState, transid: string, form: URLSearchParams): SimAnswer {
  const order = findWebOrder(state, transid);
  if (order === undefined) return htmlPage(404, "No such order", "<p>This purchase does not exist.</p>");
  const returnUrl = httpUrl(form.get("returnurl"));
  if (returnUrl === undefined) return badRequestPage("returnurl must be an absolute http(s) URL.");
  const action = form.get("action") ?? "";
  if (action !== "approve" && action !== "decline") return badRequestPage("Choose Approve or Decline.");
  answerOrder(order, action);
  return { status: 303, location: returnUrl.href };
}

function findWebOrder(state: SimState, transid: string): SimOrder | undefined {
  for (const book of [state.orders.live, state.orders.sandbox])
    for (const order of book.values()) if (order.transid === transid && order.session === "web") return order;
  return undefined;
}

// Amounts are hundredths of the currency (reference 3.11), shown without a float.
function money(cents: number, currency: string): string {
  const digits = String(cents).padStart(3, "0");
  return `${escapeHtml(currency)} ${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
