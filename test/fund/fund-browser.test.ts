import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumRequiredOrPresent, seriousViolations } from "../console/console-harness.js";
import { launchChromium } from "../support/chromium.js";
import { readMoney, type SeededShop } from "../support/seed-purchases.js";
import { type FundFixture, startFundFixture } from "./fund-fixture.js";

// The whole web path in Debian's Chromium against the service and the simulator: the campaign's
// page, sign-in on the simulator's provider page, the purchase approved (or declined, or left) on
// its approval page, the way back, and what the page shows; with the console's axe check.

const DOLLAR = 1_000_000_000n;
let nextPlayer = 76_561_198_000_002_000n;
const newPlayer = () => {
  nextPlayer += 1n;
  return nextPlayer.toString();
};

describe.skipIf(!chromiumRequiredOrPresent())(
  "funding a campaign from the web, in Chromium",
  { timeout: 120_000 },
  () => {
    let f: FundFixture;
    let browser: Browser;
    let context: BrowserContext;
    beforeAll(async () => {
      f = await startFundFixture();
      browser = await launchChromium();
    });
    afterEach(async () => {
      await context?.close();
    });
    afterAll(async () => {
      await browser?.close();
      await f?.close();
    });

    async function open(shop: SeededShop, viewport = { width: 1280, height: 900 }): Promise<Page> {
      context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${f.publicUrl}/fund/${encodeURIComponent(shop.campaignKey)}`);
      return page;
    }

    async function signIn(page: Page, steamid: string): Promise<void> {
      await page.getByRole("button", { name: "Sign in through Steam" }).click();
      await page.getByLabel("Steam id").fill(steamid);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect.poll(() => page.locator("#player").textContent()).toContain(steamid);
    }

    const stateOf = async (shop: SeededShop) =>
      (await f.db.purchase.findMany({ where: { campaignId: shop.campaignId }, select: { state: true } })).map(
        (p) => p.state,
      );

    it("opens the page, signs in through Steam, buys, approves on Steam and comes back credited, the funding updated", async () => {
      const shop = await f.shop({
        balanceNanos: 20n * DOLLAR,
        offer: { priceNanos: 5n * DOLLAR, creditNanos: 4n * DOLLAR, displayName: "A month of servers" },
      });
      const page = await open(shop);
      await expect.poll(() => page.locator("#funding").textContent()).toContain("Balance: $20.00");
      await expect.poll(() => page.getByText("A month of servers").count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);

      const player = newPlayer();
      await signIn(page, player);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Buy for $5.00: A month of servers" }).click();
      // Steam's approval page (the simulator's), for this player and this price.
      await expect.poll(() => page.getByText("Approve your purchase").count()).toBeGreaterThan(0);
      expect(new URL(page.url()).origin).toBe(new URL(f.sim.url).origin);
      await page.getByRole("button", { name: "Approve" }).click();

      await expect.poll(() => page.locator("#result").getAttribute("data-state")).toBe("CREDITED");
      expect(page.url()).toMatch(/\/purchases\/[0-9a-f-]{36}\/return$/);
      expect(await page.locator("#funding").textContent()).toContain("Balance: $24.00");
      expect(await seriousViolations(page)).toEqual([]);
      expect(await stateOf(shop)).toEqual(["CREDITED"]);

      // Reload and back: the same result, one credit.
      await page.reload();
      await page.goBack();
      await page.goForward();
      expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
    });

    it("cancels a purchase declined on Steam and says so", async () => {
      const shop = await f.shop();
      const page = await open(shop);
      await signIn(page, newPlayer());
      await page.locator("ul.offers button").first().click();
      await page.getByRole("button", { name: "Decline" }).click();
      await expect.poll(() => page.locator("#result").getAttribute("data-state")).toBe("CANCELLED");
      expect(await page.locator("#result").textContent()).toContain("Nothing was charged.");
      expect(await stateOf(shop)).toEqual(["CANCELLED"]);
    });

    it("abandons an order whose player never comes back, finalizes nothing and credits nothing", async () => {
      const shop = await f.shop();
      const page = await open(shop);
      await signIn(page, newPlayer());
      await page.locator("ul.offers button").first().click();
      await expect.poll(() => page.getByText("Approve your purchase").count()).toBeGreaterThan(0);
      const returnUrl = new URL(page.url()).searchParams.get("returnurl") ?? "";
      // The player closes the tab on Steam's page; the abandon window passes.
      await page.close();
      await f.sweep(new Date(Date.now() + 60 * 60_000));
      expect(await stateOf(shop)).toEqual(["ABANDONED"]);

      // Coming back much later shows it abandoned; nothing is finalized.
      const late = await context.newPage();
      await late.goto(returnUrl);
      await expect.poll(() => late.locator("#result").getAttribute("data-state")).toBe("ABANDONED");
      expect(await stateOf(shop)).toEqual(["ABANDONED"]);
      expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, ledger: [] });
      const { orderId } = await f.db.purchase.findFirstOrThrow({ where: { campaignId: shop.campaignId } });
      const finalized = await f.sim.control.listCalls({ call: "FinalizeTxn" });
      expect(finalized.filter((call) => call.params.orderid === orderId.toString())).toEqual([]);
    });

    it("refuses a forged assertion and a replayed one", async () => {
      const shop = await f.shop();
      const page = await open(shop);
      const returns: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/sign-in/return")) returns.push(request.url());
      });
      // Forged: the provider's answer with another player's id put in.
      await page.getByRole("button", { name: "Sign in through Steam" }).click();
      const returnTo = new URL(page.url()).searchParams.get("openid.return_to") ?? "";
      const { fields } = await f.sim.control.makeOpenIdAssertion({ steamid: newPlayer(), returnTo });
      const forged = new URL(returnTo);
      for (const [name, value] of Object.entries(fields)) forged.searchParams.set(name, value);
      forged.searchParams.set("openid.claimed_id", `https://steamcommunity.com/openid/id/${newPlayer()}`);
      forged.searchParams.set("openid.identity", forged.searchParams.get("openid.claimed_id") ?? "");
      await page.goto(forged.href);
      await expect.poll(() => page.locator("h1").textContent()).toBe("Sign-in failed");

      // Replayed: a real sign-in's return opened again.
      await page.goto(`${f.publicUrl}/fund/${encodeURIComponent(shop.campaignKey)}`);
      const player = newPlayer();
      await signIn(page, player);
      const used = returns.at(-1) ?? "";
      await page.goto(used);
      await expect.poll(() => page.locator("h1").textContent()).toBe("Sign-in failed");
      const sessions = await f.db.webSession.findMany({ where: { steamId: { not: null } }, select: { steamId: true } });
      expect(sessions.filter((s) => s.steamId === player)).toHaveLength(1);
    });

    it("shows why a campaign cannot be bought from, and opens no order", async () => {
      const shop = await f.shop({ ready: false });
      const page = await open(shop);
      await expect.poll(() => page.locator("#unavailable").textContent()).toContain("not open for funding yet");
      expect(await page.getByRole("button", { name: /^Buy/ }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Sign in through Steam" }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await stateOf(shop)).toEqual([]);
    });

    it("says so when web funding is off, on a phone's screen as well", async () => {
      const shop = await f.shop({ webFunding: false });
      const page = await open(shop, { width: 375, height: 740 });
      await expect.poll(() => page.getByText("Funding from the web is turned off").count()).toBe(1);
      expect(await page.getByRole("button").count()).toBe(0);
      // Nothing wider than the phone's screen.
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it("lays the offers out on a phone's screen with nothing wider than it", async () => {
      const shop = await f.shop({ offer: { displayName: "A month of servers for the whole community" } });
      const page = await open(shop, { width: 375, height: 740 });
      await signIn(page, newPlayer());
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
      expect(await seriousViolations(page)).toEqual([]);
      // Keyboard: Tab reaches the sign-out and the buy buttons.
      const focused: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        await page.keyboard.press("Tab");
        focused.push(String(await page.evaluate('document.activeElement?.textContent ?? ""')).trim());
      }
      expect(focused).toContain("Sign out");
      expect(focused.some((text) => text.startsWith("Buy for"))).toBe(true);
    });
  },
);
