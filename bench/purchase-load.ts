import { randomUUID } from "node:crypto";
import { Agent, request } from "undici";
import { createSteamSimControl } from "../src/sim/steam/steam-sim-control.js";
import type { BenchShop } from "./targets.js";

// The purchase load: each player buys one offer after another as a game would (spec 4.3, 4.4):
// purchases:begin with a fresh requestId, the overlay approval (the simulator's autoApprove
// player approves at once, no call), then purchases:complete with authorized=true until the
// purchase is STATE_CREDITED. A purchase's latency is from its begin to the credited answer.

export interface PurchaseLoad {
  /** Credited purchases over the measured interval. */
  purchases: number;
  seconds: number;
  latenciesMs: number[];
  /** Answers other than 200, and purchases that ended other than credited. */
  errors: number;
  firstError?: string;
}

export interface Player {
  shop: BenchShop;
  ticket: string;
}

let nextSteamid = 76_561_198_500_000_000n;

/** `count` players spread over the shops in turn, each approving every order at once. */
export async function mintPlayers(steamUrl: string, shops: BenchShop[], count: number): Promise<Player[]> {
  const control = createSteamSimControl(steamUrl);
  const players: Player[] = [];
  for (let i = 0; i < count; i++) {
    const shop = shops[i % shops.length] as BenchShop;
    nextSteamid += 1n;
    const steamid = nextSteamid.toString();
    await control.addPlayer({ steamid, autoApprove: true });
    players.push({
      shop,
      ticket: await control.mintTicket({ steamid, appid: shop.appId, identity: "encore-campaign" }),
    });
  }
  return players;
}

/**
 * The `index`th player's connection: from a loopback address of its own (127.0.2.2 and up), as
 * players are, so the service keeps its counters per address as under real load. The address is
 * the agent's `localAddress`: undici ignores one given under `connect`.
 */
export function playerAgent(index: number): Agent {
  return new Agent({ connections: 1, keepAliveTimeout: 30_000, localAddress: `127.0.2.${2 + (index % 250)}` });
}

/** How long a purchase load runs: for a time, or until this many purchases have begun. */
export type LoadLength = { seconds: number } | { purchases: number };

export async function runPurchaseLoad(port: number, players: Player[], length: LoadLength): Promise<PurchaseLoad> {
  const agents = new Map(players.map((player, i) => [player, playerAgent(i)]));
  const origin = `http://127.0.0.1:${port}`;
  const post = async (player: Player, path: string, body: unknown) => {
    const res = await request(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      dispatcher: agents.get(player),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${path}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const load: PurchaseLoad = { purchases: 0, seconds: 0, latenciesMs: [], errors: 0 };
  const until = "seconds" in length ? performance.now() + length.seconds * 1000 : Number.POSITIVE_INFINITY;
  let toBegin = "purchases" in length ? length.purchases : Number.POSITIVE_INFINITY;
  const buy = async (player: Player) => {
    const { campaignKey, offerId } = player.shop;
    const started = performance.now();
    const begun = await post(player, "/v1/public/purchases:begin", {
      campaignKey,
      offerId,
      authTicket: player.ticket,
      requestId: randomUUID(),
    });
    for (let polls = 0; polls < 20; polls++) {
      const completed = await post(player, "/v1/public/purchases:complete", {
        campaignKey,
        purchase: begun.purchase,
        orderId: begun.orderId,
        authorized: true,
      });
      if (completed.state === "STATE_CREDITED") return performance.now() - started;
      if (completed.state !== "STATE_AUTHORIZED" && completed.state !== "STATE_INITIATED")
        throw new Error(`purchase ended ${String(completed.state)}`);
    }
    throw new Error("purchase not credited after 20 completes");
  };
  const startedAt = performance.now();
  await Promise.all(
    players.map(async (player) => {
      while (performance.now() < until && toBegin > 0) {
        toBegin -= 1;
        try {
          const ms = await buy(player);
          load.purchases += 1;
          load.latenciesMs.push(ms);
        } catch (error) {
          load.errors += 1;
          load.firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  load.seconds = (performance.now() - startedAt) / 1000;
  await Promise.all([...agents.values()].map((agent) => agent.close()));
  return load;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
