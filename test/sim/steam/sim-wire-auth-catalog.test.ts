// The simulator's AuthenticateUserTicket, app list, appdetails and news wire formats, pinned to
// reference 2, 4, 5 and 6.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";
import { APPID, KEY, STEAMID, seed, startSim, wireClient } from "./sim-wire.js";

let sim: SteamSimulator;
let http: ReturnType<typeof wireClient>;

beforeAll(async () => {
  sim = await startSim();
  http = wireClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => seed(sim));

describe("ISteamUserAuth/AuthenticateUserTicket/v1", () => {
  const auth = (ticket: string, identity = "encore-campaign", appid = APPID) =>
    http.get("/ISteamUserAuth/AuthenticateUserTicket/v1/", { key: KEY, appid: String(appid), ticket, identity });

  it("puts result inside params on success (reference 1.5 style 2)", async () => {
    const ticket = await sim.control.mintTicket({ steamid: STEAMID, appid: APPID, identity: "encore-campaign" });
    const res = await auth(ticket.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      response: {
        params: { result: "OK", steamid: STEAMID, ownersteamid: STEAMID, vacbanned: false, publisherbanned: false },
      },
    });
  });

  it.each([
    ["another identity", "other-service", APPID, 101, "Invalid ticket"],
    ["no identity", "", APPID, 101, "Invalid ticket"],
    ["another app", "encore-campaign", 481, 102, "Ticket for other app"],
  ])("answers only response.error for a ticket with %s", async (_case, identity, appid, errorcode, errordesc) => {
    const ticket = await sim.control.mintTicket({ steamid: STEAMID, appid: APPID, identity: "encore-campaign" });
    const res = await auth(ticket, identity, appid);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ response: { error: { errorcode, errordesc } } });
  });

  it.each([
    ["garbled", "zz-top", 3, "Invalid parameter"],
    ["odd-length", "ABC", 3, "Invalid parameter"],
    ["unknown", "DEADBEEF", 101, "Invalid ticket"],
  ])("answers a %s ticket with errorcode %i", async (_case, ticket, errorcode, errordesc) => {
    expect((await auth(ticket)).json()).toEqual({ response: { error: { errorcode, errordesc } } });
  });
});

describe("ISteamApps/GetPartnerAppListForWebAPIKey/v2", () => {
  it("nests applist.apps.app[] with appid as a number (reference 4)", async () => {
    const res = await http.get("/ISteamApps/GetPartnerAppListForWebAPIKey/v2/", {}, { "x-webapi-key": KEY });
    expect(res.json()).toEqual({
      applist: {
        apps: {
          app: [
            { appid: 480, app_type: "game", app_name: "Spacewar" },
            { appid: 481, app_type: "tool", app_name: "Tool" },
          ],
        },
      },
    });
  });

  it("honours type_filter", async () => {
    const res = await http.get("/ISteamApps/GetPartnerAppListForWebAPIKey/v2/", { key: KEY, type_filter: "tool,dlc" });
    expect(res.json()).toEqual({ applist: { apps: { app: [{ appid: 481, app_type: "tool", app_name: "Tool" }] } } });
  });
});

describe("storefront api/appdetails (served under storeUrl)", () => {
  const details = async (appids: string, extra: Record<string, string> = {}) =>
    fetch(`${sim.storeUrl}/api/appdetails?${new URLSearchParams({ appids, ...extra })}`);

  it("answers { <appid>: { success, data } } for an app on sale (reference 5)", async () => {
    const body = await (await details("480")).json();
    expect(body).toEqual({
      "480": {
        success: true,
        data: expect.objectContaining({
          type: "game",
          name: "Spacewar",
          steam_appid: 480,
          is_free: false,
          price_overview: expect.objectContaining({ currency: "USD", final: expect.any(Number) }),
          release_date: { coming_soon: false, date: expect.any(String) },
        }),
      },
    });
  });

  it.each(["removed", "unknown"])("answers success:false without a data key for a %s app", async (which) => {
    if (which === "removed") await sim.control.setStoreStatus(APPID, "removed");
    const id = which === "removed" ? "480" : "999999999";
    expect(await (await details(id)).json()).toStrictEqual({ [id]: { success: false } });
  });

  it("omits price_overview for free and coming-soon apps", async () => {
    await sim.control.setStoreStatus(APPID, "free");
    const free = (await (await details("480")).json()) as Record<string, { data: Record<string, unknown> }>;
    expect(free["480"]?.data).toMatchObject({ is_free: true });
    expect(free["480"]?.data).not.toHaveProperty("price_overview");
    await sim.control.setStoreStatus(APPID, "comingSoon");
    const soon = (await (await details("480")).json()) as Record<string, { data: Record<string, unknown> }>;
    expect(soon["480"]?.data).toMatchObject({ release_date: { coming_soon: true, date: "" } });
    expect(soon["480"]?.data).not.toHaveProperty("price_overview");
  });

  it("answers null with 400 for several ids without filters=price_overview", async () => {
    const res = await details("480,481");
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("null");
    expect((await details("480,481", { filters: "price_overview" })).status).toBe(200);
  });
});

describe("ISteamNews/GetNewsForApp/v2", () => {
  it("answers appnews with gid strings, unix dates, feed_type and total count (reference 6)", async () => {
    await sim.control.addAnnouncement(APPID, { title: "A", contents: "[p]a[/p]", date: 100, tags: ["patchnotes"] });
    await sim.control.addAnnouncement(APPID, { title: "B", contents: "b", date: 200, feedname: "pcgamer" });
    const res = await http.get("/ISteamNews/GetNewsForApp/v2/", { appid: "480", count: "1" });
    const body = res.json() as { appnews: { newsitems: unknown[] } };
    expect(body).toEqual({
      appnews: {
        appid: 480,
        count: 2,
        newsitems: [
          {
            gid: expect.stringMatching(/^\d+$/),
            title: "B",
            url: expect.any(String),
            is_external_url: true,
            author: "",
            contents: "b",
            feedlabel: "pcgamer",
            date: 200,
            feedname: "pcgamer",
            feed_type: 0,
            appid: 480,
          },
        ],
      },
    });
    const all = (await http.get("/ISteamNews/GetNewsForApp/v0002/", { appid: "480", maxlength: "3" })).json();
    expect(all).toMatchObject({
      appnews: { newsitems: [{ title: "B" }, { title: "A", contents: "[p]", feed_type: 1, tags: ["patchnotes"] }] },
    });
  });

  it("answers an empty list with count 0", async () => {
    expect((await http.get("/ISteamNews/GetNewsForApp/v2/", { appid: "481" })).json()).toEqual({
      appnews: { appid: 481, newsitems: [], count: 0 },
    });
  });

  it("requires a key owning the app for GetNewsForAppAuthed", async () => {
    expect((await http.get("/ISteamNews/GetNewsForAppAuthed/v2/", { appid: "480" })).status).toBe(403);
    expect((await http.get("/ISteamNews/GetNewsForAppAuthed/v2/", { appid: "570", key: KEY })).status).toBe(403);
    expect((await http.get("/ISteamNews/GetNewsForAppAuthed/v2/", { appid: "480", key: KEY })).status).toBe(200);
  });
});
