// Everything the simulator remembers, in memory. Live and sandbox orders are separate books
// because the sandbox is a "dummy database" (reference 3.14).

import { randomBytes } from "node:crypto";
import type { z } from "zod";
import {
  type announcementBody,
  type faultBody,
  playerBody,
  type STEAM_CALLS,
  type storeStatusBody,
  type ticketBody,
} from "./sim-control-schemas.js";

export type Iface = "live" | "sandbox";

export type SimApp = {
  appid: number;
  name: string;
  appType: string;
  /** How the app looks on the storefront (reference 5). */
  store: z.output<typeof storeStatusBody>["status"];
  /** Items exactly as GetNewsForApp renders them (reference 6). */
  news: (Omit<z.output<typeof announcementBody>, "url" | "feedlabel" | "date"> & {
    gid: string;
    url: string;
    is_external_url: boolean;
    feedlabel: string;
    date: number;
    feed_type: number;
    appid: number;
  })[];
};

/** `autoApprove`: the player approves every order in the overlay at once (InitTxn opens it `Approved`). */
export type SimPlayer = z.output<typeof playerBody>;

export type SimTicket = Required<z.output<typeof ticketBody>>;

export type SimOrderItem = {
  itemid: number;
  qty: number;
  amount: number;
  description: string;
  category: string;
  itemstatus: string;
};

export type SimOrder = {
  orderid: string;
  transid: string;
  appid: number;
  steamid: string;
  /** Where the player approves: the game's overlay (`client`) or a browser at `steamurl` (`web`). */
  session: "client" | "web";
  status: string;
  /** Set by the control API's decline; FinalizeTxn then answers 10 rather than 101. */
  declined: boolean;
  currency: string;
  language: string;
  country: string;
  usstate: string;
  timecreated: string;
  time: string;
  items: SimOrderItem[];
};

export type SteamCallName = (typeof STEAM_CALLS)[number];

export type SimFault = Omit<z.output<typeof faultBody>, "times"> & { remaining: number };

export type SimCall = {
  call: SteamCallName;
  /** Only for ISteamMicroTxn* calls. */
  iface?: Iface;
  httpMethod: string;
  path: string;
  /** Request parameters without `key`. */
  params: Record<string, string>;
  at: string;
};

type SimData = {
  keys: Map<string, Set<number>>;
  apps: Map<number, SimApp>;
  players: Map<string, SimPlayer>;
  /** By lower-case hex. */
  tickets: Map<string, SimTicket>;
  orders: Record<Iface, Map<string, SimOrder>>;
  calls: SimCall[];
  faults: SimFault[];
  nextTransid: bigint;
  nextGid: bigint;
  /** The OpenID provider's signing secret, known to the simulator alone. */
  openIdSecret: Buffer;
  /** response_nonce of every assertion check_authentication vouched for (reference 11: once). */
  checkedNonces: Set<string>;
};

export type SimState = SimData & {
  /**
   * The simulator's own origin as browsers and the service reach it: the OpenID op_endpoint and
   * every steamurl are made from it. Set when it listens; a reset keeps it.
   */
  origin: string;
  reset(): void;
};

function emptyData(): SimData {
  return {
    keys: new Map(),
    apps: new Map(),
    players: new Map(),
    tickets: new Map(),
    orders: { live: new Map(), sandbox: new Map() },
    calls: [],
    faults: [],
    // Large enough to need 64 bits, like Steam's own ids (reference 3.5 and 6 examples).
    nextTransid: 1619516853038270001n,
    nextGid: 4732747437206292836n,
    openIdSecret: randomBytes(32),
    checkedNonces: new Set(),
  };
}

export function createSimState(origin = "http://127.0.0.1"): SimState {
  const state: SimState = { ...emptyData(), origin, reset: () => Object.assign(state, emptyData()) };
  return state;
}

/** The player, created with a USD/US/Active wallet when first seen (a ticket, a sign-in). */
export function ensurePlayer(state: SimState, steamid: string): SimPlayer {
  const known = state.players.get(steamid);
  if (known !== undefined) return known;
  const player = playerBody.parse({ steamid });
  state.players.set(steamid, player);
  return player;
}

/** Now in RFC 3339 UTC to the second, as Steam writes times. */
export function nowSeconds(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A fresh ticket. Real tickets are a few hundred bytes; the length is not part of any contract. */
export function mintTicketHex(): string {
  return randomBytes(120).toString("hex").toUpperCase();
}

/** The app record, created on first mention with defaults. */
export function ensureApp(state: SimState, appid: number): SimApp {
  const existing = state.apps.get(appid);
  if (existing !== undefined) return existing;
  const app: SimApp = { appid, name: `App ${appid}`, appType: "game", store: "onSale", news: [] };
  state.apps.set(appid, app);
  return app;
}

export function keyOwnsApp(state: SimState, key: string | undefined, appid: number): boolean {
  return key !== undefined && (state.keys.get(key)?.has(appid) ?? false);
}
