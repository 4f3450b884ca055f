// The simulator's browser pages in Chromium: Steam's sign-in and a web order's approval page,
// used with the keyboard alone, on a phone's width, with no serious axe violation.

import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";
import { chromiumRequiredOrPresent, seriousViolations } from "../../console/console-harness.js";
import { launchChromium } from "../../support/chromium.js";
import { initTxnForm, seed, startSim, wireClient } from "./sim-wire.js";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

describe.skipIf(!chromiumRequiredOrPresent())("the simulator's pages in Chromium", { timeout: 90_000 }, () => {
  let sim: SteamSimulator;
  let site: http.Server;
  let siteUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    sim = await startSim();
    // The relying party the browser is sent back to.
    site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end('<!doctype html><html lang="en"><title>Back</title><p>Back at the site</p></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
    await sim.close();
  });
  beforeEach(() => seed(sim));

  async function open(viewport: { width: number; height: number }, url: string): Promise<Page> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    expect((await page.goto(url))?.status()).toBe(200);
    return page;
  }

  /** No horizontal scrolling: everything fits the viewport's width. */
  const fitsWidth = (page: Page) =>
    page.evaluate(() => {
      const { document, innerWidth } = globalThis as unknown as {
        document: { documentElement: { scrollWidth: number } };
        innerWidth: number;
      };
      return document.documentElement.scrollWidth <= innerWidth;
    });

  const signInUrl = () => {
    const returnTo = `${siteUrl}/fund/ck_abc/sign-in/return?state=s1`;
    return `${sim.openIdUrl}?${new URLSearchParams({
      "openid.ns": "http://specs.openid.net/auth/2.0",
      "openid.mode": "checkid_setup",
      "openid.claimed_id": "http://specs.openid.net/auth/2.0/identifier_select",
      "openid.identity": "http://specs.openid.net/auth/2.0/identifier_select",
      "openid.return_to": returnTo,
      "openid.realm": siteUrl,
    })}`;
  };

  it.each([
    ["a phone", PHONE],
    ["a desktop", DESKTOP],
  ])("signs in with the keyboard alone on %s, back at return_to with an assertion", async (_name, viewport) => {
    const page = await open(viewport, signInUrl());
    expect(await seriousViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate(
        () => (globalThis as { document?: { activeElement?: { id?: string } } }).document?.activeElement?.id,
      ),
    ).toBe("steamid");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("76561198000000042");
    await page.keyboard.press("Tab");
    await Promise.all([page.waitForURL(`${siteUrl}/fund/ck_abc/sign-in/return?**`), page.keyboard.press("Enter")]);
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe("s1");
    expect(back.searchParams.get("openid.claimed_id")).toBe("https://steamcommunity.com/openid/id/76561198000000042");
    await page.context().close();
  });

  it("names a bad Steam id on the field itself, and the page stays accessible", async () => {
    const page = await open(PHONE, signInUrl());
    await page.getByLabel("Steam id").fill("123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("17 digits");
    expect(await page.getByLabel("Steam id").getAttribute("aria-invalid")).toBe("true");
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it.each([
    ["a phone", "Approve", PHONE, "Approved"],
    ["a desktop", "Decline", DESKTOP, "Failed"],
  ])("answers a web order on %s with %s, back at returnurl", async (_name, button, viewport, status) => {
    const form = initTxnForm("77").replace("usersession=client", "usersession=web&ipaddress=203.0.113.7");
    const opened = (await wireClient(sim).postForm("/ISteamMicroTxn/InitTxn/v3/", form)).json() as {
      response: { params: { steamurl: string } };
    };
    const returnUrl = `${siteUrl}/fund/ck_abc/purchases/77/return`;
    const page = await open(
      viewport,
      `${opened.response.params.steamurl}?${new URLSearchParams({ returnurl: returnUrl })}`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole("button", { name: button }).focus();
    await Promise.all([page.waitForURL(returnUrl), page.keyboard.press("Enter")]);
    expect(await sim.control.getOrder("77")).toMatchObject({ status });
    await page.context().close();
  });
});
