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
  type STORE_STATUSES,
  type ticketBody,
} from "./sim-control-schemas.js";
import type { SimCall, SimOrder, SteamCallName } from "./sim-state.js";

export type OrderBook = { readonly sandbox?: boolean };

export type OpenIdAssertion = { readonly fields: Record<string, string>; readonly returnUrl: string };

export type SteamSimControl = {
  /** Registers a publisher key owning these apps (created on first mention, on sale). */
  addPublisherKey(key: string, apps: z.input<typeof publisherKeyBody>["apps"]): Promise<void>;
  setStoreStatus(appid: number, status: (typeof STORE_STATUSES)[number]): Promise<void>;
  addAnnouncement(appid: number, item: z.input<typeof announcementBody>): Promise<{ gid: string }>;
  addPlayer(player: z.input<typeof playerBody>): Promise<void>;
  /** A hex ticket as the game would get it; the player is created (USD, US, Active) if unknown. */
  mintTicket(ticket: z.input<typeof ticketBody>): Promise<string>;
  /** The player approves in the overlay: Init -> Approved. */
  approveOrder(orderid: string, book?: OrderBook): Promise<SimOrder>;
  /** The player declines in the overlay: Init -> Failed (FinalizeTxn then answers 10). */
  declineOrder(orderid: string, book?: OrderBook): Promise<SimOrder>;
  /** The player approves a web order on its steamurl page, without a browser: Init -> Approved. */
  approveWebOrder(orderid: string, book?: OrderBook): Promise<SimOrder>;
  /** The player declines a web order on its steamurl page: Init -> Failed (FinalizeTxn then answers 10). */
  declineWebOrder(orderid: string, book?: OrderBook): Promise<SimOrder>;
  /**
   * A positive sign-in assertion for the player, signed as the sign-in page signs it: `fields`
   * (every `openid.*` field) and `returnUrl` (returnTo with them, where the browser would be sent).
   * The player is created (USD, US, Active) if unknown.
   */
  makeOpenIdAssertion(input: z.input<typeof assertionBody>): Promise<OpenIdAssertion>;
  /** The finalization window passes: Init/Approved -> Failed (FinalizeTxn then answers 101). */
  expireOrder(orderid: string, book?: OrderBook): Promise<SimOrder>;
  /**
   * Forces any status, e.g. Refunded or Chargedback for reconciliation tests; `later` sets
   * per-item statuses (PartialRefund) and the order's last-update time.
   */
  setOrderStatus(
    orderid: string,
    status: OrderStatus,
    book?: OrderBook,
    later?: Omit<z.input<typeof orderStatusBody>, "status">,
  ): Promise<SimOrder>;
  getOrder(orderid: string, book?: OrderBook): Promise<SimOrder | undefined>;
  /** Every Steam call received since the last reset/clearCalls, oldest first, without `key`. */
  listCalls(filter?: { readonly call?: SteamCallName }): Promise<SimCall[]>;
  clearCalls(): Promise<void>;
  injectFault(fault: z.input<typeof faultBody>): Promise<void>;
  clearFaults(): Promise<void>;
  /** Forgets keys, apps, players, tickets, orders, calls and faults. */
  reset(): Promise<void>;
};

export function createSteamSimControl(baseUrl: string): SteamSimControl {
  const root = `${baseUrl.replace(/\/+$/, "")}${CONTROL_PREFIX}`;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${root}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`steam simulator ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as T;
  }

  const order = (orderid: string, book: OrderBook | undefined) =>
    `/orders/${book?.sandbox === true ? "sandbox" : "live"}/${orderid}`;

  return {
    addPublisherKey: async (key, apps) => void (await call("POST", "/publisher-keys", { key, apps })),
    setStoreStatus: async (appid, status) => void (await call("PUT", `/apps/${appid}/store`, { status })),
    addAnnouncement: (appid, item) => call("POST", `/apps/${appid}/announcements`, item),
    addPlayer: async (player) => void (await call("POST", "/players", player)),
    mintTicket: async (ticket) => (await call<{ ticket: string }>("POST", "/tickets", ticket)).ticket,
    approveOrder: (orderid, book) => call("POST", `${order(orderid, book)}/approve`),
    declineOrder: (orderid, book) => call("POST", `${order(orderid, book)}/decline`),
    expireOrder: (orderid, book) => call("POST", `${order(orderid, book)}/expire`),
    approveWebOrder: (orderid, book) => call("POST", `${order(orderid, book)}/web/approve`),
    declineWebOrder: (orderid, book) => call("POST", `${order(orderid, book)}/web/decline`),
    makeOpenIdAssertion: (input) => call("POST", "/openid/assertions", input),
    setOrderStatus: (orderid, status, book, later) =>
      call("PUT", `${order(orderid, book)}/status`, { status, ...later }),
    async getOrder(orderid, book) {
      const res = await fetch(`${root}${order(orderid, book)}`);
      if (res.status === 404) return undefined;
      if (!res.ok) throw new Error(`steam simulator GET order: ${res.status}`);
      return (await res.json()) as SimOrder;
    },
    async listCalls(filter) {
      const { calls } = await call<{ calls: SimCall[] }>("GET", "/calls");
      return filter?.call === undefined ? calls : calls.filter((c) => c.call === filter.call);
    },
    clearCalls: async () => void (await call("DELETE", "/calls")),
    injectFault: async (fault) => void (await call("POST", "/faults", fault)),
    clearFaults: async () => void (await call("DELETE", "/faults")),
    reset: async () => void (await call("POST", "/reset")),
  };
}
