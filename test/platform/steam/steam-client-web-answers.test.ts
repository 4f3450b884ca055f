// How the client reads answers the simulator never gives: an InitTxn for the web without a usable
// steamurl, and check_authentication answers that are not OpenID 2.0's key-value form. A plain
// server plays Steam with the answer each case sets.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSteamClient, type SteamClient } from "../../../src/platform/steam/create-steam-client.js";

let server: http.Server;
let client: SteamClient;
let base: string;
let next: { status: number; body: string } = { status: 200, body: "" };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(next.status, { "content-type": "text/plain" });
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createSteamClient({
    apiUrl: base,
    storeUrl: base,
    openIdUrl: `${base}/openid/login`,
    timeoutMs: 5000,
    readRetries: 0,
  });
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const webOrder = {
  publisherKey: "K",
  sandbox: false,
  orderid: "1",
  steamid: "76561198000000001",
  appid: 480,
  language: "en",
  currency: "USD",
  items: [{ itemid: 1, qty: 1, amountCents: 100n, description: "d" }],
  webSession: { userSession: "web", ipAddress: "203.0.113.7" },
} as const;

const opened = (params: object) => JSON.stringify({ response: { result: "OK", params } });

describe("InitTxn's answer for a web order", () => {
  it.each([
    ["no steamurl", opened({ orderid: "1", transid: "2" })],
    ["a relative steamurl", opened({ orderid: "1", transid: "2", steamurl: "/checkout/approvetxn/2/" })],
    ["a javascript: steamurl", opened({ orderid: "1", transid: "2", steamurl: "javascript:alert(1)" })],
  ])("is unavailable with %s: the browser would have nowhere to go", async (_name, body) => {
    next = { status: 200, body };
    expect(await client.initTxn(webOrder)).toEqual({
      kind: "unavailable",
      cause: "unexpected response shape at steamurl",
    });
  });

  it("keeps a steamurl that has a query of its own", async () => {
    next = { status: 200, body: opened({ orderid: "1", transid: "2", steamurl: "https://checkout.example/a?t=2" }) };
    expect(await client.initTxn(webOrder)).toEqual({
      kind: "ok",
      value: { orderid: "1", transid: "2", steamUrl: "https://checkout.example/a?t=2" },
    });
  });
});

describe("check_authentication's answer", () => {
  const fields = {
    "openid.ns": "http://specs.openid.net/auth/2.0",
    "openid.mode": "id_res",
    "openid.op_endpoint": "",
    "openid.claimed_id": "https://steamcommunity.com/openid/id/76561198000000001",
    "openid.identity": "https://steamcommunity.com/openid/id/76561198000000001",
    "openid.return_to": "https://fund.example.com/fund/k/sign-in/return?state=s",
    "openid.response_nonce": "2026-11-29T00:00:00Zabc",
    "openid.assoc_handle": "1234567890",
    "openid.signed": "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle",
    "openid.sig": "c2ln",
  };
  const verify = () => client.verifyOpenIdAssertion({ ...fields, "openid.op_endpoint": `${base}/openid/login` });

  it.each([
    ["is_valid:true with a trailing line break missing", "ns:http://specs.openid.net/auth/2.0\nis_valid:true", true],
    ["is_valid:false", "ns:http://specs.openid.net/auth/2.0\nis_valid:false\n", false],
    [
      "is_valid:false with invalidate_handle",
      "ns:http://specs.openid.net/auth/2.0\nis_valid:false\ninvalidate_handle:1234567890\n",
      false,
    ],
  ])("reads %s", async (_name, body, valid) => {
    next = { status: 200, body };
    expect(await verify()).toMatchObject({ kind: "ok", value: { valid } });
  });

  it.each([
    ["no is_valid", "ns:http://specs.openid.net/auth/2.0\n", "is_valid"],
    ["an is_valid that is neither true nor false", "ns:http://specs.openid.net/auth/2.0\nis_valid:yes\n", "is_valid"],
    ["no ns", "is_valid:true\n", "ns"],
    ["an HTML page", "<html><body>Sign in</body></html>", "ns"],
  ])("is unavailable for %s", async (_name, body, at) => {
    next = { status: 200, body };
    expect(await verify()).toEqual({ kind: "unavailable", cause: `unexpected response shape at ${at}` });
  });

  it("is refused for an OpenID error answer (HTTP 400), never valid", async () => {
    next = { status: 400, body: "ns:http://specs.openid.net/auth/2.0\nerror:bad request\n" };
    expect(await verify()).toMatchObject({ kind: "refused", code: "HTTP_400", keyRejected: false });
  });
});
