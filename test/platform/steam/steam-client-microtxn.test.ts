// Contract: initTxn, queryTxn and finalizeTxn on both interfaces, with the overlay played by the
// simulator's control API. Order ids above 2^53 must survive every hop.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamClient } from "../../../src/platform/steam/create-steam-client.js";
import type { InitTxnInput } from "../../../src/platform/steam/steam-platform.js";
import {
  APPID,
  BIG_ORDERID,
  FOREIGN_APPID,
  KEY,
  STEAMID,
  type SteamFixture,
  startSteamFixture,
} from "./steam-fixture.js";

let fixture: SteamFixture;
let client: SteamClient;

beforeAll(async () => {
  fixture = await startSteamFixture();
  client = fixture.client();
});
afterAll(() => fixture.close());
beforeEach(() => fixture.seed());

function order(sandbox: boolean, overrides: Partial<InitTxnInput> = {}): InitTxnInput {
  return {
    publisherKey: KEY,
    sandbox,
    orderid: BIG_ORDERID,
    steamid: STEAMID,
    appid: APPID,
    language: "english",
    currency: "USD",
    items: [{ itemid: 101, qty: 1, amountCents: 499n, description: "Server funding – 1 month", category: "funding" }],
    ...overrides,
  };
}

describe.each([
  ["live", false],
  ["sandbox", true],
])("orders on the %s interface", (_name, sandbox) => {
  const ref = { publisherKey: KEY, sandbox, appid: APPID, orderid: BIG_ORDERID };
  const book = { sandbox };

  it("opens an order with a form-encoded InitTxn, keeping the 64-bit orderid exact", async () => {
    const result = await client.initTxn(order(sandbox, { language: "schinese" }));
    expect(result).toEqual({ kind: "ok", value: { orderid: BIG_ORDERID, transid: expect.stringMatching(/^\d{19}$/) } });
    const stored = await fixture.sim.control.getOrder(BIG_ORDERID, book);
    expect(stored).toMatchObject({ orderid: BIG_ORDERID, status: "Init", language: "zh", currency: "USD" });
    expect(stored?.items).toEqual([
      {
        itemid: 101,
        qty: 1,
        amount: 499,
        description: "Server funding – 1 month",
        category: "funding",
        itemstatus: "Init",
      },
    ]);
    const [call] = await fixture.sim.control.listCalls({ call: "InitTxn" });
    expect(call).toMatchObject({ httpMethod: "POST", iface: sandbox ? "sandbox" : "live" });
    expect(call?.params).toMatchObject({
      itemcount: "1",
      "itemid[0]": "101",
      "amount[0]": "499",
      usersession: "client",
    });
  });

  it("walks Init -> Approved -> Succeeded, finalizing exactly once", async () => {
    const init = await client.initTxn(order(sandbox));
    const transid = init.kind === "ok" ? init.value.transid : "";
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "ok", value: { status: "Init", transid } });
    expect(await client.finalizeTxn(ref)).toMatchObject({ kind: "refused", code: "5" });

    await fixture.sim.control.approveOrder(BIG_ORDERID, book);
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "ok", value: { status: "Approved" } });
    expect(await client.finalizeTxn(ref)).toEqual({ kind: "ok", value: { orderid: BIG_ORDERID, transid } });
    expect(await client.finalizeTxn(ref)).toMatchObject({ kind: "refused", code: "6", keyRejected: false });

    expect(await client.queryTxn(ref)).toEqual({
      kind: "ok",
      value: {
        orderid: BIG_ORDERID,
        transid,
        steamid: STEAMID,
        status: "Succeeded",
        currency: "USD",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        country: "US",
        usstate: "WA",
        items: [{ itemid: 101, qty: 1, amountCents: 499n, vatCents: 0n, itemStatus: "Succeeded" }],
      },
    });
  });

  it.each([
    ["declined by the player", "declineOrder", "Failed", "10"],
    ["past the finalization window", "expireOrder", "Failed", "101"],
  ] as const)("reports an order %s", async (_case, action, status, code) => {
    await client.initTxn(order(sandbox));
    await fixture.sim.control[action](BIG_ORDERID, book);
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "ok", value: { status } });
    expect(await client.finalizeTxn(ref)).toMatchObject({ kind: "refused", code });
  });

  it("reads refund statuses set later", async () => {
    await client.initTxn(order(sandbox));
    await fixture.sim.control.setOrderStatus(BIG_ORDERID, "RefundedSuspectedFraud", book);
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "ok", value: { status: "RefundedSuspectedFraud" } });
  });

  it.each<[string, Partial<InitTxnInput>, string]>([
    [
      "a wrong currency increment",
      { currency: "JPY", items: [{ itemid: 1, qty: 1, amountCents: 150n, description: "x" }] },
      "3",
    ],
    [
      "a description over 128 characters",
      { items: [{ itemid: 1, qty: 1, amountCents: 499n, description: "x".repeat(129) }] },
      "3",
    ],
    ["an unknown buyer", { steamid: "76561198999999999" }, "9"],
  ])("refuses %s", async (_case, overrides, code) => {
    expect(await client.initTxn(order(sandbox, overrides))).toMatchObject({
      kind: "refused",
      code,
      keyRejected: false,
    });
  });

  it("reads a GetReport page: 64-bit ids as strings, money as bigint cents, per-item statuses", async () => {
    const twoLines = order(sandbox, {
      items: [
        { itemid: 101, qty: 1, amountCents: 499n, description: "One month" },
        { itemid: 102, qty: 2, amountCents: 1000n, description: "Two more" },
      ],
    });
    await client.initTxn(twoLines);
    await fixture.sim.control.setOrderStatus(BIG_ORDERID, "PartialRefund", book, {
      items: [{ itemid: 102, status: "Refunded" }],
      time: "2026-05-01T12:00:07Z",
    });
    const report = (time: string, maxResults = 1000) =>
      client.getReport({ publisherKey: KEY, sandbox, appid: APPID, type: "SETTLEMENT", time, maxResults });
    expect(await report("2026-05-01T12:00:00Z")).toEqual({
      kind: "ok",
      value: [
        {
          orderid: BIG_ORDERID,
          transid: expect.stringMatching(/^\d{19}$/),
          steamid: STEAMID,
          status: "PartialRefund",
          currency: "USD",
          time: "2026-05-01T12:00:07Z",
          timecreated: expect.any(String),
          country: "US",
          usstate: "WA",
          items: [
            { itemid: 101, qty: 1, amountCents: 499n, vatCents: 0n, itemStatus: "Succeeded" },
            { itemid: 102, qty: 2, amountCents: 1000n, vatCents: 0n, itemStatus: "Refunded" },
          ],
        },
      ],
    });
    expect(await report("2026-05-01T12:00:08Z")).toEqual({ kind: "ok", value: [] });
    const [call] = await fixture.sim.control.listCalls({ call: "GetReport" });
    expect(call).toMatchObject({
      httpMethod: "GET",
      iface: sandbox ? "sandbox" : "live",
      params: { appid: String(APPID), type: "SETTLEMENT", time: "2026-05-01T12:00:00Z", maxresults: "1000" },
    });
  });

  it("is refused (errorcode 3) for a report time that is not RFC 3339", async () => {
    const result = await client.getReport({
      publisherKey: KEY,
      sandbox,
      appid: APPID,
      type: "SETTLEMENT",
      time: "yesterday",
      maxResults: 10,
    });
    expect(result).toMatchObject({ kind: "refused", code: "3", keyRejected: false });
  });

  it("refuses a reused orderid", async () => {
    await client.initTxn(order(sandbox));
    expect(await client.initTxn(order(sandbox))).toMatchObject({ kind: "refused", code: "3" });
  });

  it("refuses unknown orders", async () => {
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "refused", code: "3" });
    expect(await client.finalizeTxn(ref)).toMatchObject({ kind: "refused", code: "3" });
  });

  it("answers HTTP 403 (key rejected) for an app outside the key's group", async () => {
    const result = await client.initTxn(order(sandbox, { appid: FOREIGN_APPID }));
    expect(result).toMatchObject({ kind: "refused", code: "HTTP_403", keyRejected: true });
  });
});

describe("live and sandbox keep separate order books", () => {
  it("does not find a live order in the sandbox", async () => {
    await client.initTxn(order(false));
    const sandboxRef = { publisherKey: KEY, sandbox: true, appid: APPID, orderid: BIG_ORDERID };
    expect(await client.queryTxn(sandboxRef)).toMatchObject({ kind: "refused", code: "3" });
    expect(await client.initTxn(order(true))).toMatchObject({ kind: "ok" });
  });
});

describe("a locked wallet", () => {
  it("cannot open an order", async () => {
    await fixture.sim.control.addPlayer({ steamid: STEAMID, status: "Locked" });
    expect(await client.initTxn(order(false))).toMatchObject({ kind: "refused", code: "103" });
  });
});
