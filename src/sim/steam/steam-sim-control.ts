// Typed helper for the simulator's control API (docs/steam-simulator.md). It speaks HTTP, so it
// drives an in-process simulator and a separately started `npm run steam-sim` alike.

import type { z } from "zod";
import type { OrderStatus } from "../../domain/purchase-state.js";
import {
  type announcementBody,
  type assertionBody,
  CONTROL_PREFIX,
  type faultBody,
  type orderStatusBody,
  type playerBody,
  type publisherKeyBody,
  type storeStatusBody,
  type ticketBody,
} from "./sim-control-schemas.js";
import type { SimCall, SimOrder, SteamCallName } from "./sim-state.js";

type OrderBook = { readonly sandbox?: boolean };

export type OpenIdAssertion = { readonly fields: Record<string, string>; readonly returnUrl: string };

export type SteamSimControl = ReturnType<typeof createSteamSimControl>;

export function createSteamSimControl(baseUrl: string) {
  const root = `${baseUrl.replace(/\/+$/, "")}${CONTROL_PREFIX}`;

  async function call<T = void>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${root}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`steam simulator ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as T;
  }
  const done = async (answer: Promise<void>) => void (await answer);

  const order = (orderid: string, book: OrderBook | undefined) =>
    `/orders/${book?.sandbox === true ? "sandbox" : "live"}/${orderid}`;
  const answer = (to: string) => (orderid: string, book?: OrderBook) =>
    call<SimOrder>("POST", `${order(orderid, book)}/${to}`);

  return {
    /** Registers a publisher key owning these apps (created on first mention, on sale). */
    addPublisherKey: (key: string, apps: z.input<typeof publisherKeyBody>["apps"]) =>
      done(call("POST", "/publisher-keys", { key, apps })),
    /** The studio revokes the key: every Web API call made with it is refused (403) from now on. */
    revokePublisherKey: (key: string) => done(call("POST", "/publisher-keys/revoke", { key })),
    setStoreStatus: (appid: number, status: z.input<typeof storeStatusBody>["status"]) =>
      done(call("PUT", `/apps/${appid}/store`, { status })),
    addAnnouncement: (appid: number, item: z.input<typeof announcementBody>) =>
      call<{ gid: string }>("POST", `/apps/${appid}/announcements`, item),
    addPlayer: (player: z.input<typeof playerBody>) => done(call("POST", "/players", player)),
    /** A hex ticket as the game would get it; the player is created (USD, US, Active) if unknown. */
    mintTicket: async (ticket: z.input<typeof ticketBody>) =>
      (await call<{ ticket: string }>("POST", "/tickets", ticket)).ticket,
    /** The player approves in the overlay: Init -> Approved. */
    approveOrder: answer("approve"),
    /** The player declines in the overlay: Init -> Failed (FinalizeTxn then answers 10). */
    declineOrder: answer("decline"),
    /** The finalization window passes: Init/Approved -> Failed (FinalizeTxn then answers 101). */
    expireOrder: answer("expire"),
    /** The player approves a web order on its steamurl page, without a browser: Init -> Approved. */
    approveWebOrder: answer("web/approve"),
    /** The player declines a web order on its steamurl page: Init -> Failed (FinalizeTxn then answers 10). */
    declineWebOrder: answer("web/decline"),
    /**
     * A positive sign-in assertion for the player, signed as the sign-in page signs it: `fields`
     * (every `openid.*` field) and `returnUrl` (returnTo with them, where the browser would be sent).
     * The player is created (USD, US, Active) if unknown.
     */
    makeOpenIdAssertion: (input: z.input<typeof assertionBody>) =>
      call<OpenIdAssertion>("POST", "/openid/assertions", input),
    /**
     * Forces any status, e.g. Refunded or Chargedback for reconciliation tests; `later` sets
     * per-item statuses (PartialRefund) and the order's last-update time.
     */
    setOrderStatus: (
      orderid: string,
      status: OrderStatus,
      book?: OrderBook,
      later?: Omit<z.input<typeof orderStatusBody>, "status">,
    ) => call<SimOrder>("PUT", `${order(orderid, book)}/status`, { status, ...later }),
    async getOrder(orderid: string, book?: OrderBook): Promise<SimOrder | undefined> {
      const res = await fetch(`${root}${order(orderid, book)}`);
      if (res.status === 404) return undefined;
      if (!res.ok) throw new Error(`steam simulator GET order: ${res.status}`);
      return (await res.json()) as SimOrder;
    },
    /** Every Steam call received since the last reset/clearCalls, oldest first, without `key`. */
    async listCalls(filter?: { readonly call?: SteamCallName }): Promise<SimCall[]> {
      const { calls } = await call<{ calls: SimCall[] }>("GET", "/calls");
      return filter?.call === undefined ? calls : calls.filter((c) => c.call === filter.call);
    },
    clearCalls: () => done(call("DELETE", "/calls")),
    injectFault: (fault: z.input<typeof faultBody>) => done(call("POST", "/faults", fault)),
    clearFaults: () => done(call("DELETE", "/faults")),
    /** Forgets keys, apps, players, tickets, orders, calls and faults. */
    reset: () => done(call("POST", "/reset")),
  };
}
