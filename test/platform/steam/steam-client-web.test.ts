// Contract: a web purchase through the real client (reference 3.1 "Web flow", 3.5): InitTxn with
// usersession=web and the player's address, the steamurl it answers, and the approval page's
// round trip back to returnurl.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamClient } from "../../../src/platform/steam/create-steam-client.js";
import type { InitTxnInput } from "../../../src/platform/steam/steam-platform.js";
import { webApprovalUrl } from "../../../src/platform/steam/steam-web-approval.js";
import { APPID, BIG_ORDERID, KEY, STEAMID, type SteamFixture, startSteamFixture } from "./steam-fixture.js";

let fixture: SteamFixture;
let client: SteamClient;

beforeAll(async () => {
  fixture = await startSteamFixture();
  client = fixture.client({ timeoutMs: 5000 });
});
afterAll(() => fixture.close());
beforeEach(() => fixture.seed());

const RETURN_URL = "https://fund.example.com/fund/ck_abc/purchases/123/return";

function webOrder(sandbox: boolean, overrides: Partial<InitTxnInput> = {}): InitTxnInput {
  return {
    publisherKey: KEY,
    sandbox,
    orderid: BIG_ORDERID,
    steamid: STEAMID,
    appid: APPID,
    language: "en",
    currency: "USD",
    items: [{ itemid: 101, qty: 1, amountCents: 499n, description: "Server funding", category: "funding" }],
    webSession: { userSession: "web", ipAddress: "203.0.113.7" },
    ...overrides,
  };
}

describe.each([
  ["live", false],
  ["sandbox", true],
])("a web order on the %s interface", (_name, sandbox) => {
  const ref = { publisherKey: KEY, sandbox, appid: APPID, orderid: BIG_ORDERID };

  it("sends usersession=web with the session's address and answers the steamurl", async () => {
    // The session's address is the one Steam gets, whatever an in-game ipaddress said.
    const result = await client.initTxn(webOrder(sandbox, { ipaddress: "198.51.100.1" }));
    const transid = result.kind === "ok" ? result.value.transid : "";
    expect(result).toEqual({
      kind: "ok",
      value: {
        orderid: BIG_ORDERID,
        transid: expect.stringMatching(/^\d{19}$/),
        steamUrl: `${fixture.sim.url}/checkout/approvetxn/${transid}/`,
      },
    });
    const [call] = await fixture.sim.control.listCalls({ call: "InitTxn" });
    expect(call?.params).toMatchObject({ usersession: "web", ipaddress: "203.0.113.7" });
    expect(await fixture.sim.control.getOrder(BIG_ORDERID, { sandbox })).toMatchObject({ session: "web" });
  });

  it("is refused (3) for an address Steam does not take, before any order exists", async () => {
    const ipv6 = webOrder(sandbox, { webSession: { userSession: "web", ipAddress: "2001:db8::7" } });
    expect(await client.initTxn(ipv6)).toMatchObject({ kind: "refused", code: "3", keyRejected: false });
    expect(await fixture.sim.control.getOrder(BIG_ORDERID, { sandbox })).toBeUndefined();
  });

  it("goes Init -> Approved on the approval page, back at returnurl, and finalizes once", async () => {
    const opened = await client.initTxn(webOrder(sandbox));
    const steamUrl = opened.kind === "ok" ? (opened.value.steamUrl ?? "") : "";
    const approval = webApprovalUrl(steamUrl, RETURN_URL);
    // The browser: the page, then its Approve button.
    const shown = await fetch(approval);
    expect(shown.status).toBe(200);
    const action = /<form method="post" action="([^"]+)">/.exec(await shown.text())?.[1] ?? "";
    const approved = await fetch(new URL(action, approval), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ returnurl: RETURN_URL, action: "approve" }),
      redirect: "manual",
    });
    expect(approved.headers.get("location")).toBe(RETURN_URL);
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "ok", value: { status: "Approved" } });
    expect(await client.finalizeTxn(ref)).toMatchObject({ kind: "ok" });
    expect(await client.finalizeTxn(ref)).toMatchObject({ kind: "refused", code: "6" });
  });

  it("reads a decline as Failed; FinalizeTxn is refused (10)", async () => {
    await client.initTxn(webOrder(sandbox));
    await fixture.sim.control.declineWebOrder(BIG_ORDERID, { sandbox });
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "ok", value: { status: "Failed" } });
    expect(await client.finalizeTxn(ref)).toMatchObject({ kind: "refused", code: "10" });
  });
});

describe("an in-game order", () => {
  it("still goes with usersession=client and answers no steamUrl", async () => {
    const { webSession: _web, ...inGame } = webOrder(false);
    const result = await client.initTxn({ ...inGame, ipaddress: "198.51.100.1" });
    expect(result).toEqual({ kind: "ok", value: { orderid: BIG_ORDERID, transid: expect.any(String) } });
    const [call] = await fixture.sim.control.listCalls({ call: "InitTxn" });
    expect(call?.params).toMatchObject({ usersession: "client", ipaddress: "198.51.100.1" });
  });
});
