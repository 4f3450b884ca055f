// The simulator's ISteamMicroTxn[Sandbox] wire format, pinned to reference 1.5 and 3.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";
import { APPID, initTxnForm, KEY, STEAMID, seed, startSim, wireClient } from "./sim-wire.js";

let sim: SteamSimulator;
let http: ReturnType<typeof wireClient>;

beforeAll(async () => {
  sim = await startSim();
  http = wireClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => seed(sim));

const ORDERID = "1730000000000012345";

describe.each(["ISteamMicroTxn", "ISteamMicroTxnSandbox"])("%s", (iface) => {
  const book = { sandbox: iface === "ISteamMicroTxnSandbox" };
  const query = (extra: Record<string, string> = {}) =>
    http.get(`/${iface}/QueryTxn/v3/`, { key: KEY, appid: String(APPID), orderid: ORDERID, ...extra });
  const finalize = () => http.postForm(`/${iface}/FinalizeTxn/v2/`, `key=${KEY}&orderid=${ORDERID}&appid=${APPID}`);

  it("InitTxn v3 answers response.result/params with string ids (reference 3.5)", async () => {
    const res = await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(ORDERID));
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      response: { result: "OK", params: { orderid: ORDERID, transid: expect.stringMatching(/^\d+$/) } },
    });
    expect(res.text).toMatch(/"transid":"\d+"/);
  });

  it("InitTxn accepts percent-encoded array brackets (reference 1.3)", async () => {
    const form = initTxnForm(ORDERID).replace(/\[0\]/g, "%5B0%5D");
    expect((await http.postForm(`/${iface}/InitTxn/v3/`, form)).json()).toMatchObject({ response: { result: "OK" } });
  });

  it.each<[string, (form: string) => string]>([
    ["a qty over 16 bits", (form) => form.replace("qty[0]=1", "qty[0]=40000")],
    ["an unknown currency", (form) => form.replace("currency=USD", "currency=XXX")],
    ["a wrong currency increment", (form) => form.replace("currency=USD", "currency=JPY")],
    ["an unsupported language", (form) => form.replace("language=en", "language=tlh")],
    [
      "a description over 128 characters",
      (form) => form.replace("description[0]=Server", `description[0]=${"x".repeat(129)}`),
    ],
    [
      "an orderid that is not a decimal uint64",
      (form) => form.replace(`orderid=${ORDERID}`, "orderid=18446744073709551616"),
    ],
  ])("InitTxn fails with errorcode 3 (HTTP 200) for %s", async (_name, edit) => {
    const res = await http.postForm(`/${iface}/InitTxn/v3/`, edit(initTxnForm(ORDERID)));
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      response: {
        result: "Failure",
        params: { orderid: expect.any(String) },
        error: { errorcode: 3, errordesc: "Invalid parameter" },
      },
    });
  });

  it("InitTxn refuses a reused orderid with errorcode 3, echoing it", async () => {
    await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(ORDERID));
    expect((await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(ORDERID))).json()).toEqual({
      response: {
        result: "Failure",
        params: { orderid: ORDERID },
        error: { errorcode: 3, errordesc: "Invalid parameter" },
      },
    });
  });

  it("InitTxn answers 400 HTML when item lines are fewer than itemcount", async () => {
    const res = await http.postForm(
      `/${iface}/InitTxn/v3/`,
      initTxnForm(ORDERID).replace("itemcount=1", "itemcount=2"),
    );
    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/^text\/html/);
    expect(res.text).toContain("Required parameter 'itemid[1]' is missing");
  });

  it("QueryTxn v3 renders the order as reference 3.6 shows it", async () => {
    await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(ORDERID));
    const body = (await query()).json() as { response: { params: Record<string, unknown> } };
    expect(body).toEqual({
      response: {
        result: "OK",
        params: {
          orderid: ORDERID,
          transid: expect.stringMatching(/^\d+$/),
          steamid: STEAMID,
          status: "Init",
          currency: "USD",
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          country: "CN",
          usstate: "",
          items: [{ itemid: 101, qty: 1, amount: 499, vat: 0, itemstatus: "Init" }],
        },
      },
    });
    const transid = String(body.response.params.transid);
    expect((await http.get(`/${iface}/QueryTxn/v3/`, { key: KEY, appid: String(APPID), transid })).json()).toEqual(
      body,
    );
  });

  it("FinalizeTxn v2 follows the reference 7 state machine", async () => {
    await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(ORDERID));
    const errorcode = async () =>
      ((await finalize()).json() as { response: { error?: { errorcode: number } } }).response.error?.errorcode;
    expect(await errorcode()).toBe(5);
    await sim.control.approveOrder(ORDERID, book);
    const ok = (await finalize()).json();
    expect(ok).toEqual({
      response: { result: "OK", params: { orderid: ORDERID, transid: expect.stringMatching(/^\d+$/) } },
    });
    expect(await errorcode()).toBe(6);
    expect(((await query()).json() as { response: { params: { status: string } } }).response.params.status).toBe(
      "Succeeded",
    );
  });

  it("an order nobody answers stays Init", async () => {
    await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(ORDERID));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(((await query()).json() as { response: { params: { status: string } } }).response.params.status).toBe(
      "Init",
    );
  });

  it("QueryTxn of an unknown order is a Failure with errorcode 3", async () => {
    expect((await query()).json()).toMatchObject({ response: { result: "Failure", error: { errorcode: 3 } } });
  });

  it("GetUserInfo v2 returns state, country, currency, status (reference 3.4)", async () => {
    const res = await http.get(`/${iface}/GetUserInfo/v2/`, { key: KEY, appid: String(APPID), steamid: STEAMID });
    expect(res.json()).toEqual({
      response: { result: "OK", params: { state: "", country: "CN", currency: "CNY", status: "Active" } },
    });
  });
});

describe("the two order books", () => {
  it("keep live and sandbox orders apart (reference 3.14)", async () => {
    await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm(ORDERID));
    expect(await sim.control.getOrder(ORDERID, { sandbox: true })).toBeUndefined();
    expect(await sim.control.getOrder(ORDERID)).toMatchObject({ status: "Init" });
    const sandboxInit = await http.postForm("/ISteamMicroTxnSandbox/InitTxn/v3/", initTxnForm(ORDERID));
    expect(sandboxInit.json()).toMatchObject({ response: { result: "OK" } });
  });
});
