// The control API (docs/steam-simulator.md): through the typed helper and as raw JSON over HTTP.

import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SteamSimulator, startSteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";
import { createSteamSimControl } from "../../../src/sim/steam/steam-sim-control.js";
import { STEAM_SIM_ENTRY } from "../../support/built-entries.js";
import { APPID, initTxnForm, KEY, STEAMID, seed, startSim, wireClient } from "./sim-wire.js";

let sim: SteamSimulator;
let http: ReturnType<typeof wireClient>;

beforeAll(async () => {
  sim = await startSim();
  http = wireClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => seed(sim));

const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sim.url}/_sim${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
};

describe("overlay answers", () => {
  beforeEach(() => http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm("42")));

  it("approves an open order once; a second answer is a 409", async () => {
    expect(await sim.control.approveOrder("42")).toMatchObject({ orderid: "42", status: "Approved" });
    expect(await control("POST", "/orders/live/42/approve")).toEqual({
      status: 409,
      json: { error: "order is Approved" },
    });
    expect(await control("POST", "/orders/live/42/decline")).toMatchObject({ status: 409 });
  });

  it("declines into Failed", async () => {
    expect(await sim.control.declineOrder("42")).toMatchObject({ status: "Failed", declined: true });
  });

  it("answers 404 for an order in the other book", async () => {
    expect(await control("POST", "/orders/sandbox/42/approve")).toEqual({
      status: 404,
      json: { error: "no such order" },
    });
    await expect(sim.control.approveOrder("42", { sandbox: true })).rejects.toThrow(/404/);
  });
});

describe("a player who approves at once (autoApprove)", () => {
  it("has every order InitTxn opens for them Approved, ready for FinalizeTxn", async () => {
    await sim.control.addPlayer({ steamid: STEAMID, autoApprove: true });
    expect((await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm("43"))).status).toBe(200);
    expect(await sim.control.getOrder("43")).toMatchObject({ status: "Approved", items: [{ itemstatus: "Approved" }] });
    const finalize = await http.postForm("/ISteamMicroTxn/FinalizeTxn/v2/", `key=${KEY}&orderid=43&appid=${APPID}`);
    expect(finalize.json()).toMatchObject({ response: { result: "OK" } });
  });

  it("is off by default: the order waits in Init for the overlay", async () => {
    await sim.control.addPlayer({ steamid: STEAMID, autoApprove: false });
    await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm("44"));
    expect(await sim.control.getOrder("44")).toMatchObject({ status: "Init" });
  });
});

describe("a revoked publisher key", () => {
  it("is refused (403) from then on, and another key owning the app still works", async () => {
    const other = "SIMKEY-00000000000000000000000000000002";
    await sim.control.addPublisherKey(other, [APPID]);
    const list = (key: string) => http.get("/ISteamApps/GetPartnerAppListForWebAPIKey/v2/", { key });
    expect((await list(KEY)).status).toBe(200);
    await sim.control.revokePublisherKey(KEY);
    expect((await list(KEY)).status).toBe(403);
    expect((await list(other)).status).toBe(200);
  });
});

describe("requests the control API refuses", () => {
  it.each([
    ["a malformed player", "POST", "/players", { steamid: "not-a-number" }, 400],
    ["an unknown fault kind", "POST", "/faults", { call: "InitTxn", kind: "meteor" }, 400],
    ["an unknown store status", "PUT", "/apps/480/store", { status: "sold-out" }, 400],
    ["a revoke without a key", "POST", "/publisher-keys/revoke", {}, 400],
    ["an unknown path", "GET", "/nothing-here", undefined, 404],
    ["a wrong verb", "GET", "/faults", undefined, 405],
  ])("%s", async (_case, method, path, body, status) => {
    const res = await control(method, path, body);
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error: expect.any(String) });
  });
});

describe("faults", () => {
  it("hit exactly `times` matching calls, then stop", async () => {
    await sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "http429", times: 2 });
    const list = () => http.get("/ISteamApps/GetPartnerAppListForWebAPIKey/v2/", { key: KEY });
    expect((await list()).status).toBe(429);
    expect((await list()).status).toBe(429);
    expect((await list()).status).toBe(200);
  });

  it("match every call with '*' and can be cleared", async () => {
    await sim.control.injectFault({ call: "*", kind: "http5xx", status: 502, times: 5 });
    expect((await http.get("/ISteamNews/GetNewsForApp/v2/", { appid: "480" })).status).toBe(502);
    await sim.control.clearFaults();
    expect((await http.get("/ISteamNews/GetNewsForApp/v2/", { appid: "480" })).status).toBe(200);
  });
});

describe("the call log", () => {
  it("records each Steam call with its interface and parameters, never the key", async () => {
    await http.postForm("/ISteamMicroTxnSandbox/InitTxn/v3/", initTxnForm("43"));
    await http.get("/ISteamMicroTxn/QueryTxn/v3/", { key: KEY, appid: String(APPID), orderid: "43" });
    const calls = await sim.control.listCalls();
    expect(calls.map((c) => [c.call, c.iface, c.httpMethod])).toEqual([
      ["InitTxn", "sandbox", "POST"],
      ["QueryTxn", "live", "GET"],
    ]);
    expect(calls[1]?.params).toEqual({ appid: "480", orderid: "43" });
    expect(JSON.stringify(calls)).not.toContain(KEY);
    await sim.control.clearCalls();
    expect(await sim.control.listCalls()).toEqual([]);
  });

  it("is empty when nothing called the platform, and reset forgets everything", async () => {
    await sim.control.reset();
    expect(await sim.control.listCalls()).toEqual([]);
    expect((await http.get("/ISteamApps/GetPartnerAppListForWebAPIKey/v2/", { key: KEY })).status).toBe(403);
  });
});

describe("a simulator browsers reach at another origin (publicUrl)", () => {
  it("makes its OpenID op_endpoint and every steamurl from that origin", async () => {
    const behind = await startSteamSimulator({ port: 0, publicUrl: "http://steam.example:4780" });
    try {
      expect(behind.openIdUrl).toBe("http://steam.example:4780/openid/login");
      const made = await behind.control.makeOpenIdAssertion({ steamid: STEAMID, returnTo: "http://fund.example/r" });
      expect(made.fields["openid.op_endpoint"]).toBe("http://steam.example:4780/openid/login");
      await behind.control.addPublisherKey(KEY, [APPID]);
      const form = initTxnForm("9").replace("usersession=client", "usersession=web&ipaddress=203.0.113.7");
      const res = await fetch(`${behind.url}/ISteamMicroTxn/InitTxn/v3/`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      });
      expect(await res.json()).toMatchObject({
        response: {
          params: { steamurl: expect.stringMatching(/^http:\/\/steam\.example:4780\/checkout\/approvetxn\/\d+\/$/) },
        },
      });
    } finally {
      await behind.close();
    }
  });
});

describe("npm run steam-sim", () => {
  let child: ChildProcess | undefined;
  afterAll(() => void child?.kill("SIGTERM"));

  it("prints its base URL and serves the control API there", async () => {
    child = spawn(process.execPath, [STEAM_SIM_ENTRY, "--port", "0"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
    while (!/STEAM_STORE_URL=\S+\n/.test(out)) await once(child.stdout ?? child, "data");
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1] ?? "";
    expect(out).toContain(`STEAM_STORE_URL=${url}/store`);
    expect(out).toContain(`STEAM_OPENID_URL=${url}/openid/login`);
    const remote = createSteamSimControl(url);
    await remote.addPublisherKey("K", [7]);
    const res = await fetch(`${url}/ISteamApps/GetPartnerAppListForWebAPIKey/v2/`, {
      headers: { "x-webapi-key": "K" },
    });
    expect(await res.json()).toEqual({
      applist: { apps: { app: [{ appid: 7, app_type: "game", app_name: "App 7" }] } },
    });
  }, 20_000);
});
