// Contract: the key's app listing, storefront availability and announcements.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamClient } from "../../../src/platform/steam/create-steam-client.js";
import { APPID, FOREIGN_APPID, KEY, OTHER_APPID, type SteamFixture, startSteamFixture } from "./steam-fixture.js";

let fixture: SteamFixture;
let client: SteamClient;

beforeAll(async () => {
  fixture = await startSteamFixture();
  client = fixture.client();
});
afterAll(() => fixture.close());
beforeEach(() => fixture.seed());

describe("listPartnerApps", () => {
  it("lists the apps of the key's publisher group", async () => {
    expect(await client.listPartnerApps({ publisherKey: KEY })).toEqual({
      kind: "ok",
      value: [
        { appid: APPID, name: "Spacewar", appType: "game" },
        { appid: OTHER_APPID, name: "Spacewar Server", appType: "tool" },
      ],
    });
  });

  it("marks an unknown key as rejected", async () => {
    const result = await client.listPartnerApps({ publisherKey: "not-a-publisher-key" });
    expect(result).toMatchObject({ kind: "refused", code: "HTTP_403", keyRejected: true });
  });
});

describe("getStoreAvailability", () => {
  it.each([
    ["onSale", "onSale"],
    ["free", "onSale"],
    ["comingSoon", "notSold"],
    ["removed", "removed"],
  ] as const)("store status %s reads as %s", async (storeStatus, expected) => {
    await fixture.sim.control.setStoreStatus(APPID, storeStatus);
    expect(await client.getStoreAvailability({ appid: APPID })).toEqual({ kind: "ok", value: { status: expected } });
  });

  it("reads an app the store never heard of as removed", async () => {
    expect(await client.getStoreAvailability({ appid: 999999 })).toEqual({ kind: "ok", value: { status: "removed" } });
  });
});

describe("getNews", () => {
  beforeEach(async () => {
    await fixture.sim.control.addAnnouncement(APPID, {
      title: "Old patch",
      contents: "[p]fixes[/p]",
      date: 1_700_000_000,
      tags: ["patchnotes"],
    });
    await fixture.sim.control.addAnnouncement(APPID, {
      title: "Servers shut down",
      contents: "[p]Thanks[/p]",
      date: 1_760_000_000,
    });
    await fixture.sim.control.addAnnouncement(APPID, { title: "Press", feedname: "pcgamer", date: 1_750_000_000 });
  });

  it("returns announcements newest first, gid as a string", async () => {
    const result = await client.getNews({ appid: APPID });
    expect(result.kind).toBe("ok");
    const items = result.kind === "ok" ? result.value : [];
    expect(items.map((item) => [item.title, item.isAnnouncement])).toEqual([
      ["Servers shut down", true],
      ["Press", false],
      ["Old patch", true],
    ]);
    expect(items[0]).toMatchObject({
      gid: expect.stringMatching(/^\d{19}$/),
      date: 1_760_000_000,
      contents: "[p]Thanks[/p]",
    });
    expect(items[2]?.tags).toEqual(["patchnotes"]);
  });

  it("filters by feed and count, and uses the authed variant with a key", async () => {
    const result = await client.getNews({
      appid: APPID,
      publisherKey: KEY,
      feeds: ["steam_community_announcements"],
      count: 1,
    });
    expect(result).toMatchObject({ kind: "ok", value: [{ title: "Servers shut down" }] });
    const calls = await fixture.sim.control.listCalls();
    expect(calls.map((c) => c.call)).toEqual(["GetNewsForAppAuthed"]);
  });

  it("is refused with a key outside the app's group", async () => {
    const result = await client.getNews({ appid: FOREIGN_APPID, publisherKey: KEY });
    expect(result).toMatchObject({ kind: "refused", keyRejected: true });
  });

  it("returns an empty list for an app without news", async () => {
    expect(await client.getNews({ appid: OTHER_APPID })).toEqual({ kind: "ok", value: [] });
  });
});
