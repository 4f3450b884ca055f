// Plain-fetch helpers for pinning the simulator's wire format to the reference, independent of
// the client under src/platform/steam/.

import { type SteamSimulator, startSteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";

export const KEY = "SIMKEY-00000000000000000000000000000001";
export const APPID = 480;
export const STEAMID = "76561198000000001";

export type Wire = { status: number; contentType: string; text: string; json: () => unknown };

async function wire(res: Response): Promise<Wire> {
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text, json: () => JSON.parse(text) };
}

export function wireClient(sim: SteamSimulator) {
  return {
    get: async (path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
      wire(await fetch(`${sim.url}${path}?${new URLSearchParams(query)}`, { headers })),
    postForm: async (path: string, form: string, headers: Record<string, string> = {}) =>
      wire(
        await fetch(`${sim.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body: form,
        }),
      ),
    postJson: async (path: string, body: unknown, headers: Record<string, string> = {}) =>
      wire(
        await fetch(`${sim.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
      ),
  };
}

export function startSim(): Promise<SteamSimulator> {
  return startSteamSimulator({ port: 0 });
}

export async function seed(sim: SteamSimulator): Promise<void> {
  await sim.control.reset();
  await sim.control.addPublisherKey(KEY, [
    { appid: APPID, name: "Spacewar" },
    { appid: 481, appType: "tool", name: "Tool" },
  ]);
  await sim.control.addPlayer({ steamid: STEAMID, currency: "CNY", country: "CN" });
}

/** A well-formed InitTxn body, as Valve's example (reference 3.5), with raw brackets. */
export function initTxnForm(orderid: string, extra = ""): string {
  return (
    `key=${KEY}&orderid=${orderid}&steamid=${STEAMID}&appid=${APPID}&itemcount=1&language=en` +
    `&currency=USD&usersession=client&itemid[0]=101&qty[0]=1&amount[0]=499` +
    `&description[0]=Server+funding+%E2%80%93+1+month&category[0]=funding${extra}`
  );
}
