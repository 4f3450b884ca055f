// Starts the Steam simulator on node:http. Tests start it in-process on port 0; `npm run steam-sim`
// starts it from main.ts. The storefront is served by the same server under STORE_PREFIX, so
// STEAM_API_URL = url and STEAM_STORE_URL = storeUrl.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "./sim-request-handler.js";
import { createSimState } from "./sim-state.js";
import { STORE_PREFIX } from "./sim-steam-routes.js";
import { createSteamSimControl, type SteamSimControl } from "./steam-sim-control.js";

export type SteamSimulatorOptions = {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
};

export type SteamSimulator = {
  /** Stands in for https://partner.steam-api.com and https://api.steampowered.com. */
  readonly url: string;
  /** Stands in for https://store.steampowered.com (`<storeUrl>/api/appdetails`). */
  readonly storeUrl: string;
  readonly control: SteamSimControl;
  close(): Promise<void>;
};

export async function startSteamSimulator(options: SteamSimulatorOptions = {}): Promise<SteamSimulator> {
  const server = createServer(createRequestHandler(createSimState()));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    storeUrl: `${url}${STORE_PREFIX}`,
    control: createSteamSimControl(url),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Held `timeout` faults and keep-alive sockets would otherwise keep close() waiting.
        server.closeAllConnections();
      }),
  };
}
