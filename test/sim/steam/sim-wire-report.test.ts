// The simulator's GetReport v5 and the control call that sets an order's later status, pinned
// to reference 1.4, 1.5, 3.2 and 3.9.

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

const ORDERS = ["1730000000000012345", "1730000000000012346", "1730000000000012347"];
const T0 = "2026-05-01T12:00:00Z";

type Report = { response: { result: string; params: { count: number; orders: { orderid: string; time: string }[] } } };

describe.each(["ISteamMicroTxn", "ISteamMicroTxnSandbox"])("%s GetReport v5", (iface) => {
  const book = { sandbox: iface === "ISteamMicroTxnSandbox" };
  const report = (extra: Record<string, string> = {}) =>
    http.get(`/${iface}/GetReport/v5/`, { key: KEY, appid: String(APPID), time: T0, type: "SETTLEMENT", ...extra });
  const settle = async (orderid: string, time: string) => {
    await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(orderid));
    await sim.control.setOrderStatus(orderid, "Succeeded", book, { time });
  };

  it("renders settled orders as reference 3.9 shows them: {count, orders}, ids as strings", async () => {
    await settle(ORDERS[0] ?? "", "2026-05-01T12:00:05Z");
    const res = await report();
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      response: {
        result: "OK",
        params: {
          count: 1,
          orders: [
            {
              orderid: ORDERS[0],
              transid: expect.stringMatching(/^\d+$/),
              steamid: STEAMID,
              status: "Succeeded",
              currency: "USD",
              time: "2026-05-01T12:00:05Z",
              country: "CN",
              usstate: "",
              timecreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
              items: [{ itemid: 101, qty: 1, amount: 499, vat: 0, itemstatus: "Succeeded" }],
            },
          ],
        },
      },
    });
    expect(res.text).toMatch(/"transid":"\d+"/);
  });

  it("lists orders updated at or after `time`, oldest first, at most `maxresults`", async () => {
    await settle(ORDERS[2] ?? "", "2026-05-01T12:00:03Z");
    await settle(ORDERS[0] ?? "", "2026-05-01T12:00:01Z");
    await settle(ORDERS[1] ?? "", "2026-05-01T12:00:02Z");
    const ids = async (extra: Record<string, string>) =>
      ((await report(extra)).json() as Report).response.params.orders.map((o) => o.orderid);
    expect(await ids({})).toEqual(ORDERS);
    expect(await ids({ maxresults: "2" })).toEqual(ORDERS.slice(0, 2));
    // The next page starts at the latest time of the last: that order comes again (reference 3.9).
    expect(await ids({ maxresults: "2", time: "2026-05-01T12:00:02Z" })).toEqual(ORDERS.slice(1));
    expect(await ids({ time: "2026-05-01T12:00:04Z" })).toEqual([]);
  });

  it("filters by type: SETTLEMENT only settled orders, CHARGEBACK only charged back, GAMESALES all", async () => {
    await settle(ORDERS[0] ?? "", "2026-05-01T12:00:01Z");
    await settle(ORDERS[1] ?? "", "2026-05-01T12:00:02Z");
    await sim.control.setOrderStatus(ORDERS[1] ?? "", "Chargedback", book, { time: "2026-05-01T12:00:09Z" });
    await http.postForm(`/${iface}/InitTxn/v3/`, initTxnForm(ORDERS[2] ?? ""));
    const ids = async (type: string) =>
      ((await report({ type })).json() as Report).response.params.orders.map((o) => o.orderid).sort();
    expect(await ids("SETTLEMENT")).toEqual(ORDERS.slice(0, 2));
    expect(await ids("CHARGEBACK")).toEqual([ORDERS[1]]);
    expect(await ids("GAMESALES")).toEqual(ORDERS);
    expect(await ids("SUBSCRIPTION")).toEqual([]);
  });

  it("shows a partial refund with each item's status (reference 3.2)", async () => {
    const form = initTxnForm(ORDERS[0] ?? "").replace("itemcount=1", "itemcount=2");
    const second = "&itemid[1]=102&qty[1]=2&amount[1]=1000&description[1]=Two+more";
    await http.postForm(`/${iface}/InitTxn/v3/`, form + second);
    await sim.control.setOrderStatus(ORDERS[0] ?? "", "PartialRefund", book, {
      items: [{ itemid: 102, status: "Refunded" }],
      time: "2026-05-01T12:00:07Z",
    });
    const order = ((await report()).json() as { response: { params: { orders: unknown[] } } }).response.params
      .orders[0];
    expect(order).toMatchObject({
      status: "PartialRefund",
      items: [
        { itemid: 101, amount: 499, itemstatus: "Succeeded" },
        { itemid: 102, qty: 2, amount: 1000, itemstatus: "Refunded" },
      ],
    });
  });

  it.each<[string, Record<string, string>]>([
    ["a time that is not RFC 3339 UTC", { time: "yesterday" }],
    ["an unknown type", { type: "EVERYTHING" }],
    ["maxresults over 50000", { maxresults: "50001" }],
    ["maxresults 0", { maxresults: "0" }],
  ])("is a Failure with errorcode 3 (HTTP 200) for %s", async (_name, extra) => {
    const res = await report(extra);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      response: { result: "Failure", error: { errorcode: 3, errordesc: "Invalid parameter" } },
    });
  });

  it("answers 400 HTML without `time`, 403 for an app outside the key's group", async () => {
    const missing = await http.get(`/${iface}/GetReport/v5/`, { key: KEY, appid: String(APPID) });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain("Required parameter 'time' is missing");
    expect((await report({ appid: "999" })).status).toBe(403);
  });
});

describe("the later-status control call", () => {
  it("refuses PartialRefund without per-item statuses", async () => {
    await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm(ORDERS[0] ?? ""));
    const put = await fetch(`${sim.url}/_sim/orders/live/${ORDERS[0]}/status`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "PartialRefund" }),
    });
    expect(put.status).toBe(400);
    expect(await put.json()).toEqual({ error: expect.stringContaining("items") });
  });

  it.each(["Refunded", "Chargedback", "RefundedSuspectedFraud", "RefundedFriendlyFraud"] as const)(
    "sets %s on the order and every item, with a new time",
    async (status) => {
      await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm(ORDERS[0] ?? ""));
      const order = await sim.control.setOrderStatus(ORDERS[0] ?? "", status, undefined, { time: T0 });
      expect(order).toMatchObject({ status, time: T0, items: [{ itemstatus: status }] });
    },
  );
});
