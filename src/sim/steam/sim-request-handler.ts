// One HTTP request to the simulator: control calls under CONTROL_PREFIX, the browser's pages
// (sign-in, web checkout), everything else is Steam. Steam calls are logged (listCalls), then
// subjected to any armed fault, then answered. The pages are not partner Web API calls: they are
// neither logged nor subject to faults, and take no publisher key.

import type { IncomingMessage, ServerResponse } from "node:http";
import { forbidden, htmlAnswer, type SimAnswer } from "./sim-answer.js";
import { handleControl } from "./sim-control-routes.js";
import { CONTROL_PREFIX } from "./sim-control-schemas.js";
import { OPENID_PATH } from "./sim-openid.js";
import { signInPage, submitSignIn } from "./sim-openid-login.js";
import type { SimState, SteamCallName } from "./sim-state.js";
import { findSteamRoute, type SteamRoute } from "./sim-steam-routes.js";
import { checkoutPage, checkoutTransid, submitCheckout } from "./sim-web-checkout.js";

export function createRequestHandler(state: SimState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) write(res, htmlAnswer(500, "Internal Server Error", String(error)));
    });
  };
}

async function handle(state: SimState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://simulator");
  const body = await readBody(req);
  const method = req.method ?? "GET";
  if (url.pathname.startsWith(`${CONTROL_PREFIX}/`))
    return write(res, handleControl(state, method, url.pathname, body === "" ? {} : parseJson(body)));
  // POST parameters come only from a form body: a JSON body leaves them "missing" (reference 1.3).
  const isForm = (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
  const form = new URLSearchParams(method === "POST" && isForm ? body : "");
  const page = browserPage(state, method, url, form);
  if (page !== undefined) return write(res, page);
  const route = findSteamRoute(url.pathname);
  if (route === undefined) return write(res, htmlAnswer(404, "Not Found", "Not Found"));
  const params = method === "POST" ? form : url.searchParams;
  const header = req.headers["x-webapi-key"];
  const key = (typeof header === "string" ? header : undefined) ?? params.get("key") ?? undefined;
  record(state, route, method, url.pathname, params);
  if (method !== route.method)
    return write(res, htmlAnswer(405, "Method Not Allowed", "This API must be called with a HTTP POST request"));
  const fault = takeFault(state, route.call);
  if (fault?.kind === "latency") await new Promise((resolve) => setTimeout(resolve, fault.ms));
  // `timeout` answers nothing: the client's own timeout must fire; close() drops the socket.
  if (fault?.kind === "timeout") return;
  if (fault?.kind === "reset") return void req.socket.destroy();
  if (fault?.kind === "http5xx") return write(res, htmlAnswer(fault.status, "Server Error", "Server Error"));
  if (fault?.kind === "http429") return write(res, htmlAnswer(429, "Too Many Requests", "Too Many Requests"));
  if (fault?.kind === "rejectKey") return write(res, forbidden());
  const answer = route.handle(state, { params, key });
  // The state change happened, the reply is lost: FinalizeTxn-timeout recovery (reference 7).
  if (fault?.kind === "resetAfterCommit") return void req.socket.destroy();
  write(res, answer);
}

/** The page's answer, or undefined when the request is not for a page (check_authentication included). */
function browserPage(state: SimState, method: string, url: URL, form: URLSearchParams): SimAnswer | undefined {
  const transid = checkoutTransid(url.pathname);
  if (transid !== undefined) {
    if (method === "GET") return checkoutPage(state, transid, url.searchParams);
    if (method === "POST") return submitCheckout(state, transid, form);
    return htmlAnswer(405, "Method Not Allowed", "Method Not Allowed");
  }
  if (url.pathname !== OPENID_PATH) return undefined;
  if (method === "GET") return signInPage(url.searchParams);
  // The provider's own verification is a Steam call like the partner API's.
  if (method === "POST" && form.get("openid.mode") !== "check_authentication") return submitSignIn(state, form);
  return undefined;
}

function record(state: SimState, route: SteamRoute, httpMethod: string, path: string, params: URLSearchParams): void {
  const logged = Object.fromEntries([...params].filter(([name]) => name !== "key"));
  state.calls.push({
    call: route.call,
    ...(route.iface === undefined ? {} : { iface: route.iface }),
    httpMethod,
    path,
    params: logged,
    at: new Date().toISOString(),
  });
}

// Pages run no script and load nothing; like Steam's sign-in page they cannot be framed (reference 11).
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

function write(res: ServerResponse, answer: SimAnswer): void {
  if ("json" in answer) {
    res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(answer.json));
  } else if ("text" in answer) {
    res.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8" });
    res.end(answer.text);
  } else if ("location" in answer) {
    res.writeHead(answer.status, { location: answer.location, "cache-control": "no-store" });
    res.end();
  } else {
    res.writeHead(answer.status, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": PAGE_POLICY,
      "cache-control": "no-store",
    });
    res.end(answer.html);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Takes the first fault armed through the control API for this call (or for "*"), counting it down. */
function takeFault(state: SimState, call: SteamCallName) {
  const fault = state.faults.find((f) => f.call === call || f.call === "*");
  if (fault === undefined) return undefined;
  fault.remaining -= 1;
  if (fault.remaining <= 0) state.faults.splice(state.faults.indexOf(fault), 1);
  return fault;
}
