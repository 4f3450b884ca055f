// The simulator's control API: JSON over HTTP under CONTROL_PREFIX (docs/steam-simulator.md).
// Tests and demos play the studio, the player and the overlay through it.

import type { z } from "zod";
import {
  announcementBody,
  assertionBody,
  CONTROL_PREFIX,
  faultBody,
  orderStatusBody,
  playerBody,
  publisherKeyBody,
  revokedKeyBody,
  storeStatusBody,
  ticketBody,
} from "./sim-control-schemas.js";
import { makeAssertion, returnToWith } from "./sim-openid.js";
import { ensureApp, ensurePlayer, type Iface, mintTicketHex, type SimOrder, type SimState } from "./sim-state.js";
import { setOrderStatus } from "./sim-txn-handlers.js";
import { answerOrder, type OrderAnswer } from "./sim-web-checkout.js";

type ControlAnswer = { readonly status: number; readonly json: unknown };

type ControlRoute = {
  readonly method: string;
  readonly pattern: RegExp;
  readonly handle: (state: SimState, match: string[], body: unknown) => ControlAnswer;
};

const ok = (json: unknown = {}): ControlAnswer => ({ status: 200, json });
const fail = (status: number, error: string): ControlAnswer => ({ status, json: { error } });

const route = (method: string, path: string, handle: ControlRoute["handle"]): ControlRoute => ({
  method,
  pattern: new RegExp(`^${path}$`),
  handle,
});

/** A control call that changes the state and answers 200 `{}`. */
const act = (method: string, path: string, change: (state: SimState, match: string[], body: unknown) => void) =>
  route(method, path, (state, match, body) => {
    change(state, match, body);
    return ok();
  });

// A bad body aborts the handler; handleControl turns the tagged error into a 400.
const BAD_BODY = Symbol("bad control body");

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  throw Object.assign(new Error(message), { [BAD_BODY]: true });
}

function withOrder(state: SimState, match: string[], then: (order: SimOrder) => ControlAnswer): ControlAnswer {
  const order = state.orders[match[1] as Iface].get(match[2] ?? "");
  return order === undefined ? fail(404, "no such order") : then(order);
}

const ORDER = "/orders/(live|sandbox)/(\\d+)";

const ROUTES: readonly ControlRoute[] = [
  act("POST", "/reset", (state) => state.reset()),
  act("POST", "/publisher-keys", (state, _match, body) => {
    const { key, apps } = parse(publisherKeyBody, body);
    const owned = state.keys.get(key) ?? new Set<number>();
    for (const entry of apps) {
      const app = ensureApp(state, typeof entry === "number" ? entry : entry.appid);
      if (typeof entry !== "number")
        Object.assign(app, entry.name && { name: entry.name }, entry.appType && { appType: entry.appType });
      owned.add(app.appid);
    }
    state.keys.set(key, owned);
  }),
  // The studio revoked the key at Steam: every call made with it is refused from now on.
  act("POST", "/publisher-keys/revoke", (state, _match, body) => {
    state.keys.delete(parse(revokedKeyBody, body).key);
  }),
  act("PUT", "/apps/(\\d+)/store", (state, match, body) => {
    ensureApp(state, Number(match[1])).store = parse(storeStatusBody, body).status;
  }),
  route("POST", "/apps/(\\d+)/announcements", (state, match, body) => {
    const input = parse(announcementBody, body);
    const app = ensureApp(state, Number(match[1]));
    const gid = String(state.nextGid++);
    const community = input.feedname === "steam_community_announcements";
    app.news.push({
      gid,
      title: input.title,
      url: input.url ?? `https://steamstore-a.akamaihd.net/news/externalpost/${input.feedname}/${gid}`,
      is_external_url: true,
      author: input.author,
      contents: input.contents,
      feedlabel: input.feedlabel ?? (community ? "Community Announcements" : input.feedname),
      date: input.date ?? Math.floor(Date.now() / 1000),
      feedname: input.feedname,
      feed_type: community ? 1 : 0,
      appid: app.appid,
      ...(input.tags === undefined ? {} : { tags: input.tags }),
    });
    return ok({ gid });
  }),
  act("POST", "/players", (state, _match, body) => {
    const player = parse(playerBody, body);
    state.players.set(player.steamid, player);
  }),
  route("POST", "/tickets", (state, _match, body) => {
    const input = parse(ticketBody, body);
    ensurePlayer(state, input.steamid);
    const ticket = mintTicketHex();
    state.tickets.set(ticket.toLowerCase(), { ...input, ownerSteamid: input.ownerSteamid ?? input.steamid });
    return ok({ ticket });
  }),
  route("GET", ORDER, (state, match) => withOrder(state, match, ok)),
  route("POST", `${ORDER}/(approve|decline|expire)`, (state, match) =>
    withOrder(state, match, (order) => {
      // A web order is answered on its approval page, never in the overlay (reference 3.1);
      // its finalization window passes all the same.
      if (order.session === "web" && match[3] !== "expire")
        return fail(409, "a web order is approved or declined at its steamurl (web/approve, web/decline)");
      return answerOrder(order, match[3] as OrderAnswer) ? ok(order) : fail(409, `order is ${order.status}`);
    }),
  ),
  route("POST", `${ORDER}/web/(approve|decline)`, (state, match) =>
    withOrder(state, match, (order) => {
      if (order.session !== "web") return fail(409, "not a web order: the overlay answers it (approve, decline)");
      return answerOrder(order, match[3] as OrderAnswer) ? ok(order) : fail(409, `order is ${order.status}`);
    }),
  ),
  route("POST", "/openid/assertions", (state, _match, body) => {
    const input = parse(assertionBody, body);
    ensurePlayer(state, input.steamid);
    const fields = makeAssertion(state, input);
    return ok({ fields, returnUrl: returnToWith(input.returnTo, Object.entries(fields)) });
  }),
  route("PUT", `${ORDER}/status`, (state, match, body) =>
    withOrder(state, match, (order) => {
      const { status, ...later } = parse(orderStatusBody, body);
      setOrderStatus(order, status, later);
      return ok(order);
    }),
  ),
  route("GET", "/calls", (state) => ok({ calls: state.calls })),
  act("DELETE", "/calls", (state) => {
    state.calls = [];
  }),
  act("POST", "/faults", (state, _match, body) => {
    const { times, ...fault } = parse(faultBody, body);
    state.faults.push({ ...fault, remaining: times });
  }),
  act("DELETE", "/faults", (state) => {
    state.faults = [];
  }),
];

export function handleControl(state: SimState, method: string, pathname: string, body: unknown): ControlAnswer {
  const path = pathname.slice(CONTROL_PREFIX.length);
  const matches = ROUTES.map((route) => ({ route, match: route.pattern.exec(path) })).filter((m) => m.match !== null);
  const found = matches.find((m) => m.route.method === method);
  if (found === undefined)
    return matches.length > 0 ? fail(405, "method not allowed") : fail(404, "no such control call");
  try {
    return found.route.handle(state, [...(found.match ?? [])], body);
  } catch (error) {
    if (error instanceof Error && BAD_BODY in error) return fail(400, error.message);
    throw error;
  }
}
