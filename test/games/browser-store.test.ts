import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StorePageServer, startStorePageServer } from "../../src/dev/store-page-server.js";
import { CHROMIUM, launchChromium } from "../support/chromium.js";
import { engineAvailable, type GameHarness, startGameHarness } from "./game-harness.js";

// The browser store page (clients/browser, served by src/dev/store-page-server.ts as
// `npm run dev` does) in real headless Chromium against the service and the Steam simulator.
// Written on every run; docs/images/ holds a copy for docs/game-integration.md.
const SCREENSHOT = "test-results/store-page.png";
const OVERLAY_SCREENSHOT = "test-results/store-page-overlay.png";
const BLOCKED_SCREENSHOT = "test-results/store-page-blocked.png";

describe.skipIf(!engineAvailable(CHROMIUM))("browser store page in Chromium", () => {
  let harness: GameHarness;
  let allowed: StorePageServer;
  let blocked: StorePageServer;
  let hurried: StorePageServer;
  let browser: Browser;
  beforeAll(async () => {
    harness = await startGameHarness();
    const page = (apiUrl: string, authorizationTimeoutMs?: number) =>
      startStorePageServer({
        simUrl: harness.env.STEAM_SIM_URL ?? "",
        config: {
          apiUrl,
          campaignKey: harness.shop.campaignKey,
          steam: { appId: harness.shop.appId, steamid: harness.env.STEAM_ID ?? "", language: "english" },
          retry: { maxAttempts: 2, initialBackoffMs: 100, maxBackoffMs: 200 },
          authorizationTimeoutMs,
        },
      });
    allowed = await page(harness.server.baseUrl);
    blocked = await page(harness.server.baseUrl);
    // A page whose client waits one second for the overlay's answer.
    hurried = await page(harness.server.baseUrl, 1000);
    // The operator allowed those two pages' origins only (spec 8 CORS).
    await harness.server.db.database.prisma.operatorSettings.update({
      where: { id: 1 },
      data: { allowedOrigins: [allowed.url, hurried.url] },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await allowed?.close();
    await blocked?.close();
    await hurried?.close();
    await harness?.close();
  });

  it("tells the player clearly when the operator has not allowed the page's origin", async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 360 } });
    await page.goto(blocked.url);
    await expect
      .poll(() => page.locator("#status").textContent(), { timeout: 10_000 })
      .toContain(`ask for ${blocked.url} to be added to the allowed origins`);
    expect(await page.locator("#funding-text").textContent()).toBe("Funding unavailable");
    mkdirSync("test-results", { recursive: true });
    await page.screenshot({ path: BLOCKED_SCREENSHOT });
    await page.close();
  });

  it("shows funding and offers on an allowed origin, takes a decline as no, buys through the overlay and shows the new funding", async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 560 } });
    await page.goto(allowed.url);
    await expect.poll(() => page.locator("#funding-text").textContent()).toBe("$20.00 of server credit");
    await expect.poll(() => page.locator("#offers li").count()).toBe(2);
    expect(await page.locator("#offers li").first().textContent()).toContain("A week of servers · $5.00");

    // The player changes their mind in the overlay: not an error, nothing charged.
    await page.locator("#offers button").first().click();
    await page.locator("#overlay-decline").click();
    await expect.poll(() => page.locator("#status").textContent()).toBe("Purchase cancelled. Nothing was charged.");
    expect(await page.locator("#funding-text").textContent()).toBe("$20.00 of server credit");

    await page.locator("#offers button").first().click();
    // The simulator's stand-in for the Steam overlay; "Authorize" approves the order.
    await page.locator("#overlay-approve").waitFor();
    mkdirSync("test-results", { recursive: true });
    await page.screenshot({ path: OVERLAY_SCREENSHOT });
    await page.locator("#overlay-approve").click();
    await expect
      .poll(() => page.locator("#status").textContent())
      .toBe("Thank you! Your purchase keeps the servers running.");
    expect(await page.locator("#funding-text").textContent()).toBe("$23.00 of server credit");
    const credited = await harness.server.db.database.prisma.purchase.findMany({
      where: { campaignId: harness.shop.campaignId, state: "CREDITED" },
    });
    expect(credited).toHaveLength(1);
    const cancelled = await harness.server.db.database.prisma.purchase.count({
      where: { campaignId: harness.shop.campaignId, state: "CANCELLED" },
    });
    expect(cancelled).toBe(1);
    await page.screenshot({ path: SCREENSHOT });
    await page.close();
  });

  it("stops waiting when the overlay is not answered within the client's timeout, and says what that means", async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 560 } });
    await page.goto(hurried.url);
    await expect.poll(() => page.locator("#offers li").count()).toBe(2);
    await page.locator("#offers button").first().click();
    await page.locator("#overlay-approve").waitFor();
    const orderId = /\(order (\d+)\)/.exec((await page.locator("#overlay-text").textContent()) ?? "")?.[1] ?? "";
    await expect
      .poll(() => page.locator("#status").textContent())
      .toBe(
        "Steam did not confirm the purchase in time. If you approved it, it will be credited within a few minutes.",
      );
    expect(await page.locator("#overlay").isHidden()).toBe(true);
    expect(await page.locator("#offers button").first().isEnabled()).toBe(true);
    // Nothing was completed: Steam's order is still open and the service never asked about it.
    expect((await harness.sim.control.getOrder(orderId))?.status).toBe("Init");
    expect(
      (await harness.sim.control.listCalls({ call: "QueryTxn" })).filter((c) => c.params.orderid === orderId),
    ).toEqual([]);
    const purchase = await harness.server.db.database.prisma.purchase.findUniqueOrThrow({
      where: { orderId: BigInt(orderId) },
    });
    expect(purchase.state).toBe("INITIATED");
    await page.close();
  });
});
