import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_SERVER_ENTRY } from "../support/built-entries.js";
import { CHROMIUM, launchChromium } from "../support/chromium.js";
import { type ServiceProcess, startService, waitFor } from "../support/service-process.js";
import { engineAvailable } from "./game-harness.js";

// The store page is served by `npm run dev` (src/dev/main.ts) and never by the
// production service (src/main.ts). The dev entry runs here as `npm run dev` runs its build:
// the same main, under the TypeScript loader other process tests use.
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const STORE_PAGE_LINE = /^Store page \(browser client, Steam played by the simulator\): (\S+)$/m;
const DEV_LINE = /^Encore Campaigns \(dev\) on (\S+);/m;
const CONSOLE_LINE = /^Studio console: (\S+) /m;
const FUNDING_PAGE_LINE = /^Funding page \(sign in through the simulator's Steam\): (\S+)$/m;
const STUDIO_KEY_LINE = /^Demo studio API key \(account\.owner of "Demo Studio"\): (ek_\S+)$/m;
const THANKS = "Thank you! Your purchase keeps the servers running.";
// What the store page is made of (src/dev/store-page-server.ts).
const PAGE_PATHS = ["/", "/index.html", "/store-page.js", "/encore-client.js", "/steam-bridges.js", "/config.json"];

describe.skipIf(!engineAvailable(CHROMIUM))("npm run dev: the console and the store page", { timeout: 180_000 }, () => {
  let dev: ChildProcess;
  let output = "";
  let browser: Browser;
  beforeAll(async () => {
    dev = spawn(process.execPath, [DEV_SERVER_ENTRY], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0" },
    });
    dev.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    dev.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dev?.exitCode === null) dev.kill("SIGKILL");
  });

  it("prints the console's URL and the demo studio's API key, which signs in to the demo campaign", async () => {
    await waitFor(() => STORE_PAGE_LINE.test(output) || dev.exitCode !== null, "the dev lines");
    const consoleUrl = CONSOLE_LINE.exec(output)?.[1];
    const apiKey = STUDIO_KEY_LINE.exec(output)?.[1];
    expect(consoleUrl, output).toBe(`${DEV_LINE.exec(output)?.[1]}/console/`);
    expect(apiKey, output).toBeDefined();

    const page = await browser.newPage();
    await page.goto(consoleUrl ?? "");
    await page.getByLabel("API key or session token").fill(apiKey ?? "");
    await page.getByRole("button", { name: "Sign in" }).click();
    // The demo campaign (src/dev/seed-demo.ts), owned by the account the key belongs to.
    await expect.poll(() => page.getByText("Keep Spacewar alive").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.close();
  });

  it("prints the demo campaign's funding page, served on the address the service listens on", async () => {
    await waitFor(() => STORE_PAGE_LINE.test(output) || dev.exitCode !== null, "the dev lines");
    const fundingPage = FUNDING_PAGE_LINE.exec(output)?.[1];
    expect(fundingPage, output).toMatch(new RegExp(`^${DEV_LINE.exec(output)?.[1]}/fund/ck_`));
    const res = await fetch(fundingPage ?? "");
    const html = await res.text();
    expect(res.status, html).toBe(200);
    // Web funding is on for the demo campaign: its offers are for sale on the page.
    expect(html).toContain("A week of servers");
    expect(html).toContain("A month of servers");
  });

  it("prints the store page's URL, where a player buys through the simulated overlay; the dev API does not serve the page", async () => {
    await waitFor(() => STORE_PAGE_LINE.test(output) || dev.exitCode !== null, "the store page line");
    const storeUrl = STORE_PAGE_LINE.exec(output)?.[1];
    expect(storeUrl, output).toBeDefined();
    const apiUrl = DEV_LINE.exec(output)?.[1] ?? "";
    expect(new URL(storeUrl ?? "").origin).not.toBe(new URL(apiUrl).origin);

    const page = await browser.newPage();
    await page.goto(storeUrl ?? "");
    // The demo campaign (src/dev/seed-demo.ts): $20 of credit shown, two offers.
    await expect.poll(() => page.locator("#funding-text").textContent(), { timeout: 15_000 }).toContain("$20.00");
    await expect.poll(() => page.locator("#offers li").count()).toBe(2);
    await page.locator("#offers button").first().click();
    await page.locator("#overlay-approve").click();
    await expect.poll(() => page.locator("#status").textContent(), { timeout: 15_000 }).toBe(THANKS);
    await page.close();

    // The page lives on its own origin; the service dev runs answers none of its files.
    for (const path of PAGE_PATHS) expect((await fetch(`${apiUrl}${path}`)).status, path).toBe(404);

    // Ctrl-C (SIGTERM here) stops dev, the simulator and the page server, and exits cleanly.
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

describe("the production service", { timeout: 120_000 }, () => {
  let service: ServiceProcess;
  afterAll(() => {
    service?.child.kill("SIGKILL");
  });

  it("does not serve the store page", async () => {
    service = startService({});
    const url = await service.listening();
    for (const path of PAGE_PATHS) {
      const answer = await fetch(`${url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).not.toContain("Keep the servers running");
    }
    // The 404s came from a ready service, not from one still starting.
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });
});
