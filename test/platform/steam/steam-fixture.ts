// A simulator on an ephemeral loopback port, seeded with one publisher key, and a real client on it.

import {
  createSteamClient,
  type SteamClient,
  type SteamClientOptions,
} from "../../../src/platform/steam/create-steam-client.js";
import { STEAM_TICKET_IDENTITY } from "../../../src/platform/steam/steam-auth-call.js";
import { type SteamSimulator, startSteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";

export const KEY = "PUBKEY-5F1E0C2D9A8B7C6D5E4F3A2B1C0D9E8F";
export const OTHER_KEY = "PUBKEY-OTHER-000000000000000000000000";
export const APPID = 480;
export const OTHER_APPID = 481;
export const FOREIGN_APPID = 570;
export const STEAMID = "76561198000000001";
/** 2^53 + 1: the smallest integer a JS number cannot hold. */
export const BIG_ORDERID = "9007199254740993";
export const IDENTITY = STEAM_TICKET_IDENTITY;

export type SteamFixture = {
  readonly sim: SteamSimulator;
  client(options?: Partial<SteamClientOptions>): SteamClient;
  /** Resets the simulator and seeds KEY (APPID, OTHER_APPID), OTHER_KEY (FOREIGN_APPID) and a player. */
  seed(): Promise<void>;
  close(): Promise<void>;
};

export async function startSteamFixture(): Promise<SteamFixture> {
  const sim = await startSteamSimulator({ port: 0 });
  const clients: SteamClient[] = [];
  return {
    sim,
    client(options) {
      const client = createSteamClient({
        apiUrl: sim.url,
        storeUrl: sim.storeUrl,
        openIdUrl: sim.openIdUrl,
        timeoutMs: 250,
        readRetries: 0,
        retryBackoffMs: 5,
        ...options,
      });
      clients.push(client);
      return client;
    },
    async seed() {
      await sim.control.reset();
      await sim.control.addPublisherKey(KEY, [
        { appid: APPID, name: "Spacewar", appType: "game" },
        { appid: OTHER_APPID, name: "Spacewar Server", appType: "tool" },
      ]);
      await sim.control.addPublisherKey(OTHER_KEY, [FOREIGN_APPID]);
      await sim.control.addPlayer({ steamid: STEAMID, currency: "USD", country: "US", state: "WA" });
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await sim.close();
    },
  };
}
