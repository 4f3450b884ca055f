// Contract: authenticateTicket and getUserInfo through the real client and the simulator.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamClient } from "../../../src/platform/steam/create-steam-client.js";
import {
  APPID,
  IDENTITY,
  KEY,
  OTHER_APPID,
  OTHER_KEY,
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

describe("authenticateTicket", () => {
  const mint = (overrides: { appid?: number; identity?: string; ownerSteamid?: string } = {}) =>
    fixture.sim.control.mintTicket({ steamid: STEAMID, appid: APPID, identity: IDENTITY, ...overrides });

  it("vouches for a good ticket, sending identity encore-campaign", async () => {
    const ticket = await mint();
    expect(await client.authenticateTicket({ publisherKey: KEY, appid: APPID, ticket })).toEqual({
      kind: "ok",
      value: { steamid: STEAMID, ownerSteamid: STEAMID, vacBanned: false, publisherBanned: false },
    });
    const [call] = await fixture.sim.control.listCalls({ call: "AuthenticateUserTicket" });
    expect(call?.params).toEqual({ appid: String(APPID), ticket, identity: "encore-campaign" });
  });

  it("reports the family-sharing owner", async () => {
    const ticket = await mint({ ownerSteamid: "76561198000000777" });
    const result = await client.authenticateTicket({ publisherKey: KEY, appid: APPID, ticket });
    expect(result).toMatchObject({ kind: "ok", value: { steamid: STEAMID, ownerSteamid: "76561198000000777" } });
  });

  it.each([
    ["a ticket for another identity", () => mint({ identity: "some-other-service" }), APPID, "101"],
    ["a ticket for another app", () => mint({ appid: OTHER_APPID }), APPID, "102"],
    ["a garbled ticket", async () => "not-hex-at-all!", APPID, "3"],
    ["an unknown ticket", async () => "00112233445566778899", APPID, "101"],
  ])("refuses %s", async (_name, ticketOf, appid, code) => {
    const ticket = await ticketOf();
    const result = await client.authenticateTicket({ publisherKey: KEY, appid, ticket });
    expect(result).toEqual({ kind: "refused", code, description: expect.any(String), keyRejected: false });
  });

  it("marks a key that is not the app's as rejected", async () => {
    const ticket = await mint();
    const result = await client.authenticateTicket({ publisherKey: OTHER_KEY, appid: APPID, ticket });
    expect(result).toMatchObject({ kind: "refused", code: "HTTP_403", keyRejected: true });
  });
});

describe("getUserInfo", () => {
  it.each([false, true])("reads the wallet (sandbox %s)", async (sandbox) => {
    const result = await client.getUserInfo({ publisherKey: KEY, sandbox, appid: APPID, steamid: STEAMID });
    expect(result).toEqual({ kind: "ok", value: { country: "US", state: "WA", currency: "USD", status: "Active" } });
    const [call] = await fixture.sim.control.listCalls({ call: "GetUserInfo" });
    expect(call).toMatchObject({ iface: sandbox ? "sandbox" : "live", httpMethod: "GET" });
  });

  it("shows a locked wallet, so the service can refuse early", async () => {
    await fixture.sim.control.addPlayer({
      steamid: "76561198000000002",
      currency: "EUR",
      country: "DE",
      status: "Locked",
    });
    const result = await client.getUserInfo({
      publisherKey: KEY,
      sandbox: false,
      appid: APPID,
      steamid: "76561198000000002",
    });
    expect(result).toMatchObject({ kind: "ok", value: { currency: "EUR", status: "Locked" } });
  });

  it("refuses an unknown account with Steam's code", async () => {
    const result = await client.getUserInfo({
      publisherKey: KEY,
      sandbox: false,
      appid: APPID,
      steamid: "76561198999999999",
    });
    expect(result).toMatchObject({ kind: "refused", code: "9", keyRejected: false });
  });
});
