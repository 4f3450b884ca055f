// The simulator's web purchases (reference 3.1 "Web flow", 3.5): InitTxn with usersession=web,
// the approval page at its steamurl, and the control routes that answer it without a browser.

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
const RETURN_URL = "http://127.0.0.1:8080/fund/ck_abc/purchases/123/return";
const WEB = "&ipaddress=203.0.113.7";

const webForm = (extra = WEB) => initTxnForm(ORDERID, extra).replace("usersession=client", "usersession=web");

async function openWebOrder(iface = "ISteamMicroTxn"): Promise<{ transid: string; steamurl: string }> {
  const res = await http.postForm(`/${iface}/InitTxn/v3/`, webForm());
  const { params } = (res.json() as { response: { params: { transid: string; steamurl: string } } }).response;
  return params;
}

const page = (steamurl: string, returnurl?: string) =>
  fetch(returnurl === undefined ? steamurl : `${steamurl}?${new URLSearchParams({ returnurl })}`);

const answer = (steamurl: string, fields: Record<string, string>) =>
  fetch(steamurl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });

const query = async (iface = "ISteamMicroTxn") =>
  (await http.get(`/${iface}/QueryTxn/v3/`, { key: KEY, appid: String(APPID), orderid: ORDERID })).json();

describe.each(["ISteamMicroTxn", "ISteamMicroTxnSandbox"])("InitTxn with usersession=web on %s", (iface) => {
  it("opens the order in Init and answers the steamurl of its approval page", async () => {
    const res = await http.postForm(`/${iface}/InitTxn/v3/`, webForm());
    const transid = (res.json() as { response: { params: { transid: string } } }).response.params.transid;
    expect(res.json()).toEqual({
      response: {
        result: "OK",
        params: { orderid: ORDERID, transid, steamurl: `${sim.url}/checkout/approvetxn/${transid}/` },
      },
    });
    expect(await sim.control.getOrder(ORDERID, { sandbox: iface.endsWith("Sandbox") })).toMatchObject({
      session: "web",
      status: "Init",
    });
  });

  it.each([
    ["no ipaddress", ""],
    ["an empty ipaddress", "&ipaddress="],
    ["an IPv6 ipaddress", "&ipaddress=2001:db8::7"],
    ["an IPv4-mapped IPv6 ipaddress", "&ipaddress=::ffff:203.0.113.7"],
    ["a short ipaddress", "&ipaddress=203.0.113"],
    ["a host name", "&ipaddress=player.example"],
  ])("refuses %s with errorcode 3 (reference 3.5: ipaddress is required for web)", async (_name, extra) => {
    const res = await http.postForm(`/${iface}/InitTxn/v3/`, webForm(extra));
    expect(res.json()).toEqual({
      response: {
        result: "Failure",
        params: { orderid: ORDERID },
        error: { errorcode: 3, errordesc: "Invalid parameter" },
      },
    });
    expect(await sim.control.getOrder(ORDERID, { sandbox: iface.endsWith("Sandbox") })).toBeUndefined();
  });
});

describe("InitTxn's usersession", () => {
  it("answers no steamurl for an in-game order (client, or usersession left out)", async () => {
    const client = await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm("1"));
    expect(client.json()).toEqual({
      response: { result: "OK", params: { orderid: "1", transid: expect.any(String) } },
    });
    const omitted = await http.postForm(
      "/ISteamMicroTxn/InitTxn/v3/",
      initTxnForm("2").replace("&usersession=client", ""),
    );
    expect(omitted.json()).toEqual({
      response: { result: "OK", params: { orderid: "2", transid: expect.any(String) } },
    });
    expect(await sim.control.getOrder("2")).toMatchObject({ session: "client" });
  });

  it("refuses a session it does not know with errorcode 3", async () => {
    const res = await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm("3").replace("client", "mobile"));
    expect(res.json()).toMatchObject({ response: { result: "Failure", error: { errorcode: 3 } } });
  });

  it("leaves a web order of a player who approves everything at once waiting for its page", async () => {
    await sim.control.addPlayer({ steamid: STEAMID, autoApprove: true });
    await openWebOrder();
    expect(await sim.control.getOrder(ORDERID)).toMatchObject({ status: "Init", items: [{ itemstatus: "Init" }] });
  });
});

describe("the approval page at steamurl", () => {
  it("shows the item, its amount and the total, with Approve and Decline posting back to it", async () => {
    const { steamurl, transid } = await openWebOrder();
    const res = await page(steamurl, RETURN_URL);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Spacewar");
    expect(html).toContain('<td>Server funding – 1 month</td><td>1</td><td class="amount">USD 4.99</td>');
    expect(html).toContain('<th scope="row" colspan="2">Total</th><td class="amount">USD 4.99</td>');
    expect(html).toContain(`<form method="post" action="/checkout/approvetxn/${transid}/">`);
    expect(html).toContain(`<input type="hidden" name="returnurl" value="${RETURN_URL}">`);
    expect(html).toContain('<button class="primary" type="submit" name="action" value="approve">Approve</button>');
    expect(html).toContain('<button class="secondary" type="submit" name="action" value="decline">Decline</button>');
    expect(html).not.toContain("<script");
  });

  it("shows descriptions as text, never as markup", async () => {
    const form = webForm().replace(
      "description[0]=Server+funding+%E2%80%93+1+month",
      "description[0]=%3Cscript%3Ex%3C%2Fscript%3E",
    );
    const res = await http.postForm("/ISteamMicroTxn/InitTxn/v3/", form);
    const { steamurl } = (res.json() as { response: { params: { steamurl: string } } }).response.params;
    const html = await (await page(steamurl, RETURN_URL)).text();
    expect(html).toContain("&#60;script&#62;x&#60;/script&#62;");
    expect(html).not.toContain("<script>");
  });

  it.each([
    ["no returnurl", undefined],
    ["a relative returnurl", "/fund/ck_abc/purchases/123/return"],
    ["a javascript: returnurl", "javascript:alert(1)"],
    ["a returnurl without a scheme", "//evil.example/return"],
  ])("answers a 400 page for %s", async (_name, returnurl) => {
    const { steamurl } = await openWebOrder();
    const res = await page(steamurl, returnurl);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("returnurl must be an absolute http(s) URL");
  });

  it("answers 404 for an unknown transid and for an in-game order's", async () => {
    await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm("7"));
    const inGame = await sim.control.getOrder("7");
    for (const transid of ["1", inGame?.transid ?? ""]) {
      const res = await page(`${sim.url}/checkout/approvetxn/${transid}/`, RETURN_URL);
      expect(res.status).toBe(404);
    }
  });

  it("approves: Approved, then 303 to returnurl; FinalizeTxn then captures it once", async () => {
    const { steamurl, transid } = await openWebOrder();
    const res = await answer(steamurl, { returnurl: RETURN_URL, action: "approve" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(RETURN_URL);
    expect(await query()).toMatchObject({ response: { params: { status: "Approved", transid } } });
    const finalize = () =>
      http.postForm("/ISteamMicroTxn/FinalizeTxn/v2/", `key=${KEY}&orderid=${ORDERID}&appid=${APPID}`);
    expect((await finalize()).json()).toEqual({ response: { result: "OK", params: { orderid: ORDERID, transid } } });
    expect((await finalize()).json()).toMatchObject({ response: { error: { errorcode: 6 } } });
  });

  it("declines: Failed, then 303 to returnurl; FinalizeTxn answers 10", async () => {
    const { steamurl } = await openWebOrder("ISteamMicroTxnSandbox");
    const res = await answer(steamurl, { returnurl: RETURN_URL, action: "decline" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(RETURN_URL);
    expect(await query("ISteamMicroTxnSandbox")).toMatchObject({ response: { params: { status: "Failed" } } });
    const finalize = await http.postForm(
      "/ISteamMicroTxnSandbox/FinalizeTxn/v2/",
      `key=${KEY}&orderid=${ORDERID}&appid=${APPID}`,
    );
    expect(finalize.json()).toMatchObject({ response: { error: { errorcode: 10 } } });
  });

  it("keeps the first answer: a second one (back button, another tab) changes nothing but still returns", async () => {
    const { steamurl } = await openWebOrder();
    await answer(steamurl, { returnurl: RETURN_URL, action: "approve" });
    const again = await answer(steamurl, { returnurl: RETURN_URL, action: "decline" });
    expect(again.status).toBe(303);
    expect(await query()).toMatchObject({ response: { params: { status: "Approved" } } });
    const html = await (await page(steamurl, RETURN_URL)).text();
    expect(html).toContain("is Approved");
    expect(html).toContain(`<a href="${RETURN_URL}">Return to the site</a>`);
    expect(html).not.toContain("<form");
  });

  it("refuses an answer without an absolute returnurl, or without approve or decline, changing nothing", async () => {
    const { steamurl } = await openWebOrder();
    const relative = await answer(steamurl, { returnurl: "/x", action: "approve" });
    expect(relative.status).toBe(400);
    expect(relative.headers.get("location")).toBeNull();
    expect((await answer(steamurl, { returnurl: RETURN_URL, action: "maybe" })).status).toBe(400);
    expect(await query()).toMatchObject({ response: { params: { status: "Init" } } });
  });
});

describe("control routes for web orders", () => {
  it("approve and decline a web order without a browser", async () => {
    await openWebOrder();
    expect(await sim.control.approveWebOrder(ORDERID)).toMatchObject({ status: "Approved", declined: false });
    await expect(sim.control.declineWebOrder(ORDERID)).rejects.toThrow(/409.*order is Approved/);
  });

  it("decline into Failed, as the page does", async () => {
    await openWebOrder("ISteamMicroTxnSandbox");
    expect(await sim.control.declineWebOrder(ORDERID, { sandbox: true })).toMatchObject({
      status: "Failed",
      declined: true,
    });
  });

  it("never answer a web order through the overlay, nor an in-game order through the web", async () => {
    await openWebOrder();
    await expect(sim.control.approveOrder(ORDERID)).rejects.toThrow(/409.*steamurl/);
    await expect(sim.control.declineOrder(ORDERID)).rejects.toThrow(/409.*steamurl/);
    await http.postForm("/ISteamMicroTxn/InitTxn/v3/", initTxnForm("8"));
    await expect(sim.control.approveWebOrder("8")).rejects.toThrow(/409.*not a web order/);
    expect(await sim.control.getOrder(ORDERID)).toMatchObject({ status: "Init" });
    expect(await sim.control.getOrder("8")).toMatchObject({ status: "Init" });
  });

  it("let a web order's finalization window pass (expire)", async () => {
    await openWebOrder();
    await sim.control.approveWebOrder(ORDERID);
    expect(await sim.control.expireOrder(ORDERID)).toMatchObject({ status: "Failed", declined: false });
  });
});
