// Starts the Steam simulator on node:http. Tests start it in-process on port 0; `npm run steam-sim`
// starts it from main.ts. The storefront is served by the same server under STORE_PREFIX, so
// STEAM_API_URL = url and STEAM_STORE_URL = storeUrl; its OpenID provider is STEAM_OPENID_URL =
// openIdUrl.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OPENID_PATH } from "./sim-openid.js";
import { createRequestHandler } from "./sim-request-handler.js";
import { createSimState } from "./sim-state.js";
import { STORE_PREFIX } from "./sim-steam-routes.js";
import { createSteamSimControl, type SteamSimControl } from "./steam-sim-control.js";

export type SteamSimulatorOptions = {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /**
   * The origin browsers and the service reach the simulator at (its OpenID op_endpoint and every
   * steamurl are made from it); default the URL it listens on.
   */
  readonly publicUrl?: string;
};

export type SteamSimulator = {
  /** Stands in for https://partner.steam-api.com and https://api.steampowered.com. */
  readonly url: string;
  /** Stands in for https://store.steampowered.com (`<storeUrl>/api/appdetails`). */
  readonly storeUrl: string;
  /** Stands in for https://steamcommunity.com/openid/login (STEAM_OPENID_URL). */
  readonly openIdUrl: string;
  readonly control: SteamSimControl;
  close(): Promise<void>;
};

export async function startSteamSimulator(options: SteamSimulatorOptions = {}): Promise<SteamSimulator> {
  const state = createSimState();
  const server = createServer(createRequestHandler(state));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  state.origin = options.publicUrl === undefined ? url : new URL(options.publicUrl).origin;
  return {
    url,
    storeUrl: `${url}${STORE_PREFIX}`,
    openIdUrl: `${state.origin}${OPENID_PATH}`,
    control: createSteamSimControl(url),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Held `timeout` faults and keep-alive sockets would otherwise keep close() waiting.
        server.closeAllConnections();
      }),
  };
}
