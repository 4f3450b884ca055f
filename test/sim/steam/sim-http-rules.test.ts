// The simulator's HTTP-level rules (reference 1.3, 1.6, 7): HTML bodies on every non-200,
// 403 for keys, 400 for missing parameters and JSON bodies, 404/405, version spellings.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";
import { APPID, initTxnForm, KEY, seed, startSim, wireClient } from "./sim-wire.js";

let sim: SteamSimulator;
let http: ReturnType<typeof wireClient>;

beforeAll(async () => {
  sim = await startSim();
  http = wireClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => seed(sim));

describe("HTTP rules", () => {
  it.each([
    ["no key", () => http.get("/ISteamMicroTxn/QueryTxn/v3/", { appid: "480", orderid: "1" }), 403],
    [
      "an unknown key",
      () => http.get("/ISteamMicroTxn/QueryTxn/v3/", { key: "nope", appid: "480", orderid: "1" }),
      403,
    ],
    [
      "an app outside the key's group",
      () => http.get("/ISteamMicroTxn/QueryTxn/v3/", { key: KEY, appid: "570", orderid: "1" }),
      403,
    ],
    ["no appid", () => http.get("/ISteamMicroTxn/QueryTxn/v3/", { key: KEY, orderid: "1" }), 400],
    [
      "a JSON body on a POST method",
      () => http.postJson("/ISteamMicroTxn/InitTxn/v3/", { orderid: "1" }, { "x-webapi-key": KEY }),
      400,
    ],
    ["GET on a POST method", () => http.get("/ISteamMicroTxn/InitTxn/v3/", { key: KEY }), 405],
    ["POST on a GET method", () => http.postForm("/ISteamMicroTxn/QueryTxn/v3/", `key=${KEY}`), 405],
    ["an unknown method", () => http.get("/ISteamMicroTxn/RefundTxn/v2/", { key: KEY }), 404],
    ["an unserved version", () => http.postForm("/ISteamMicroTxn/InitTxn/v1/", initTxnForm("5")), 404],
  ])("answers %s with an HTML %i", async (_case, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.contentType).toMatch(/^text\/html/);
    expect(() => res.json()).toThrow();
  });

  it("names the missing parameter as Valve does", async () => {
    const res = await http.postJson("/ISteamMicroTxn/InitTxn/v3/", { orderid: "1" }, { "x-webapi-key": KEY });
    expect(res.text).toContain("Required parameter 'orderid' is missing");
  });

  it("says to verify key= on 403", async () => {
    expect((await http.get("/ISteamApps/GetPartnerAppListForWebAPIKey/v2/")).text).toContain(
      "verify your <pre>key=</pre>",
    );
  });

  it.each([
    ["the key form field", (form: string) => http.postForm("/ISteamMicroTxn/InitTxn/v3/", form)],
    [
      "the x-webapi-key header",
      (form: string) =>
        http.postForm("/ISteamMicroTxn/InitTxn/v3/", form.replace(`key=${KEY}&`, ""), { "x-webapi-key": KEY }),
    ],
  ])("takes the key from %s (reference 1.2)", async (_case, send) => {
    expect((await send(initTxnForm("77"))).json()).toMatchObject({ response: { result: "OK" } });
  });

  it.each(["/ISteamMicroTxn/QueryTxn/v3/", "/ISteamMicroTxn/QueryTxn/v3", "/ISteamMicroTxn/QueryTxn/v0003/"])(
    "serves the path spelling %s (reference 1.1)",
    async (path) => {
      const res = await http.get(path, { key: KEY, appid: String(APPID), orderid: "1" });
      expect(res.status).toBe(200);
    },
  );
});
