import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { HostingService, Resource_Kind, Resource_State } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { CONSOLE_CSP } from "../../src/server/console-route.js";
import { type SteamSimulator, startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import { createMemberSession } from "../identity/identity-fixture.js";
import { launchChromium } from "../support/chromium.js";
import { mintPlayer } from "../support/seed-purchases.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { drain, type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "../webhooks/webhook-receiver.js";
import { buildConsole, chromiumRequiredOrPresent, screenshot, seriousViolations } from "./console-harness.js";

// A studio's daily work in the console, in headless Chromium, against the service and
// the Steam simulator: sign in, link a key, declare a campaign and see it verified, price an offer
// (the credit limit refused in words), transfer the game, watch a player's purchase reach the
// chart and the table; a viewer sees no edit control; every page passes axe-core, keeps to its
// own origin under the CSP, and is photographed at 1280 px and 375 px. Web funding is switched
// on and off, its link copied, and web purchases marked.

const APP_ID = 4810;
const PUBLISHER_KEY = "CONSOLE-PUBLISHER-KEY-1";
const ROTATED_KEY = "CONSOLE-PUBLISHER-KEY-2";
const usd = (units: bigint, nanos = 0) => ({ currencyCode: "USD", units, nanos });
// The console reads again every few seconds (verification, transfers and purchases happen
// elsewhere); every wait below is for the page to show what the service already did.
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 100 });

describe.skipIf(!chromiumRequiredOrPresent())("the studio console in Chromium", { timeout: 90_000 }, () => {
  let sim: SteamSimulator;
  let receiver: Receiver;
  let server: TestServer;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let account: string;
  let ownerKey: string;
  const requests: string[] = [];
  const violations: string[] = [];
  const pageErrors: string[] = [];
  const state: { campaign?: string; campaignId?: string; link?: string; game?: string; project?: string } = {};

  beforeAll(async () => {
    const consoleDir = await buildConsole();
    sim = await startSteamSimulator({ port: 0 });
    // A studio's webhook receiver on loopback (allowed, over http, by the webhook tests' settings,
    // which also leave the delivery passes to the test).
    receiver = await startReceiver();
    server = await startTestServer({
      consoleDir,
      env: { STEAM_API_URL: sim.url, STEAM_STORE_URL: sim.storeUrl, STEAM_TIMEOUT_MS: "1000", ...WEBHOOK_TEST_ENV },
    });
    // Steam: the studio's key owns app 4810, which the store no longer sells (verifiable).
    await sim.control.addPublisherKey(PUBLISHER_KEY, [{ appid: APP_ID, name: "Spacewar Classic" }]);
    await sim.control.addPublisherKey(ROTATED_KEY, [{ appid: APP_ID, name: "Spacewar Classic" }]);
    await sim.control.setStoreStatus(APP_ID, "removed");
    const operator = server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
    const created = await operator.createAccount({ displayName: "Spacewar Studio" });
    account = created.account?.name ?? "";
    ownerKey = created.apiKey?.keyString ?? "";
    browser = await launchChromium();
    owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await owner.newPage();
    page.on("request", (request) => requests.push(request.url()));
    page.on("pageerror", (error) => {
      pageErrors.push(error.message);
      process.stderr.write(`console page error: ${error.stack ?? error.message}\n`);
    });
    // Chromium reports what the CSP blocked on the console.
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
  }, 240_000);
  // What the page showed when a step failed, for whoever reads the run.
  afterEach(async (context) => {
    if (context.task.result?.state === "fail" && page) await screenshot(page, "failed");
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sim?.close();
    await receiver?.close();
  });

  const go = async (path: string) => {
    await page.goto(`${server.baseUrl}/console${path}`);
  };
  const expectAccessible = async (target: Page = page) => {
    expect(await seriousViolations(target)).toEqual([]);
  };
  const phoneShot = async (name: string) => {
    await page.setViewportSize({ width: 375, height: 800 });
    // Nothing is wider than a phone: no sideways scrolling (tables scroll inside their own box).
    await poll(() =>
      page.evaluate(`[document.documentElement.scrollWidth, ...[...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > 376 && !e.parentElement.closest(".table-scroll"))
        .map((e) => e.tagName + "." + e.className)]`),
    ).toEqual([375]);
    await screenshot(page, `${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  it("signs in with the keyboard alone, keeps the token for the tab only, and names the account and role", async () => {
    await go("/");
    await poll(() => page.getByRole("heading", { name: "Encore Campaigns" }).isVisible()).toBe(true);
    await expectAccessible();
    await screenshot(page, "sign-in");
    // A wrong token is refused in words.
    await page.keyboard.press("Tab");
    await page.keyboard.type("ek_not-a-key");
    await page.keyboard.press("Enter");
    await poll(() => page.getByRole("alert").textContent()).toBe(
      "That key or session is not valid, or the session has expired.",
    );
    await page.getByLabel("API key or session token").fill("");
    await page.getByLabel("API key or session token").focus();
    await page.keyboard.type(ownerKey);
    await page.keyboard.press("Tab"); // past the field's note to the button
    await page.keyboard.press("Enter");
    await poll(() => page.getByText("Spacewar Studio · owner").isVisible()).toBe(true);
    expect(await page.evaluate("Object.keys(sessionStorage)")).toEqual(["encore-console-token"]);
    expect(await page.evaluate("Object.keys(localStorage)")).toEqual([]);
    expect(await page.evaluate("document.cookie")).toBe("");
    // The first stop on the keyboard is the skip link, then the navigation.
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Skip to content");
  });

  it("links a publisher key: fingerprint, state, outstanding, reserved and limit, never the key", async () => {
    await page.getByRole("link", { name: "Distributor links" }).click();
    await poll(() => page.getByText("No distributor link yet.").isVisible()).toBe(true);
    await page.getByLabel("Name", { exact: true }).fill("Steam");
    await page.getByLabel("Publisher Web API key").fill(PUBLISHER_KEY);
    await page.getByRole("button", { name: "Link key" }).click();
    await poll(() => page.getByText("Linked: Steam accepted the key").isVisible()).toBe(true);
    const card = page.getByRole("article").filter({ hasText: "Key fingerprint" });
    await poll(() => card.count()).toBe(1);
    const text = (await card.textContent()) ?? "";
    expect(text).toContain("Active");
    expect(text).toMatch(/Outstanding\$0\.00/);
    expect(text).toMatch(/Reserved\$0\.00/);
    expect(text).toMatch(/Limit\$0\.00/);
    expect(await page.content()).not.toContain(PUBLISHER_KEY);
    const links = await server
      .client(CampaignService, "connect", ownerKey)
      .listDistributorLinks({ parent: account, pageSize: 10 });
    state.link = links.distributorLinks[0]?.name;
  });

  it("declares a campaign, says why it is not purchasable, and shows it verified", async () => {
    await page.getByRole("link", { name: "Campaigns" }).click();
    await poll(() => page.getByText("No campaigns yet. Declare one below.").isVisible()).toBe(true);
    await page.getByLabel("Name", { exact: true }).fill("Keep Spacewar alive");
    await page.getByLabel("Or add a game").fill("Spacewar Classic");
    await page.getByRole("button", { name: "Add game" }).click();
    await poll(() => page.getByLabel("Game", { exact: true }).inputValue()).toMatch(/\/games\//);
    state.game = await page.getByLabel("Game", { exact: true }).inputValue();
    await page.getByLabel("Distributor link").selectOption({ label: "Steam" });
    await poll(() => page.getByLabel("Game on Steam").locator("option").allTextContents()).toContain(
      `Spacewar Classic (app ${APP_ID})`,
    );
    await page.getByLabel("Game on Steam").selectOption({ label: `Spacewar Classic (app ${APP_ID})` });
    await page.getByLabel("Exact balance").check();
    await page.getByRole("button", { name: "Declare campaign" }).click();
    await poll(() => page.getByText("verification has started").isVisible()).toBe(true);
    const card = page.getByRole("article").filter({ hasText: "Keep Spacewar alive" });
    await poll(() => card.locator(".badge").first().textContent()).toBe("Verified");
    // Verified, but the game is not in the campaign's project yet: said, with what to do.
    await poll(() => card.textContent()).toContain(
      "Players cannot buy: The game's servers are not in the campaign's project yet: start a transfer.",
    );
    expect(await card.textContent()).toContain("Verification:");
    await expectAccessible();
    await screenshot(page, "campaigns");
    await phoneShot("campaigns");
    const href = (await card.getByRole("link").first().getAttribute("href")) ?? "";
    state.campaignId = href.split("/").pop();
    state.campaign = `${account}/campaigns/${state.campaignId}`;
  });

  it("prices an offer: the storefront's share and the maximum credit as typed, too much credit refused in words", async () => {
    await page.getByRole("link", { name: "Keep Spacewar alive" }).click();
    await poll(() => page.getByRole("heading", { name: "Offers" }).isVisible()).toBe(true);
    await page.getByLabel("Name shown in the overlay and store").fill("A month of servers");
    await page.getByLabel("Price (US dollars, whole cents)").fill("10");
    await poll(() => page.locator("p[id$='-share']").textContent()).toBe(
      "The storefront keeps 30%: $3.00. Maximum credit: $7.00.",
    );
    await page.getByLabel("Price (US dollars, whole cents)").fill("4.99");
    await poll(() => page.locator("p[id$='-share']").textContent()).toBe(
      "The storefront keeps 30%: $1.497. Maximum credit: $3.493.",
    );
    await page.getByLabel("Price (US dollars, whole cents)").fill("10");
    await page.getByLabel("Credit for the servers (US dollars, never shown to players)").fill("8");
    await poll(() => page.locator("p[id$='-credit-note']").textContent()).toBe(
      "That is more than the maximum credit of $7.00.",
    );
    await page.getByRole("button", { name: "Add offer" }).click();
    await poll(() => page.getByRole("alert").textContent()).toBe(
      'Please check: "offer.credit" must be at most the price less the storefront\'s 30% share: at most USD 7.00.',
    );
    await page.getByLabel("Credit for the servers (US dollars, never shown to players)").fill("7");
    await page.getByRole("button", { name: "Add offer" }).click();
    await poll(() => page.getByText("Offer “A month of servers” created.").isVisible()).toBe(true);
    const row = page.getByRole("row").filter({ hasText: "A month of servers" });
    await poll(() => row.textContent()).toContain("$10.00$7.00Yes");
    // The player's view lists it at its price, never its credit.
    const view = page.locator(".player-view");
    await poll(() => view.textContent()).toContain("A month of servers $10.00");
    expect(await view.textContent()).not.toContain("$7.00");
  });

  it("transfers the game: plan, candidates and warnings, move, progress, acknowledging a stopped server", async () => {
    const hosting = server.client(HostingService, "connect", ownerKey);
    const project = await hosting.createProject({ parent: account, project: { displayName: "Live servers" } });
    state.project = project.name;
    const resource = (displayName: string, fields: Record<string, unknown>) =>
      hosting.createResource({
        parent: project.name,
        resource: {
          displayName,
          kind: Resource_Kind.SERVER,
          region: "eu-west",
          game: state.game,
          hourlyPrice: usd(0n, 500_000_000),
          ...fields,
        },
      });
    await resource("eu-game-1", { clientFacing: true });
    await resource("eu-game-old", { state: Resource_State.STOPPED, diskCopyable: false });
    await resource("build-box", { game: "" });

    await page.getByRole("link", { name: "Transfer the game's servers into the campaign" }).click();
    await page.getByLabel("Project the game runs in now").selectOption({ label: "Live servers" });
    await poll(() => page.getByText("Recommended: move.").isVisible()).toBe(true);
    await poll(() => page.getByRole("heading", { name: "Warnings" }).isVisible()).toBe(true);
    const candidates = page.getByRole("table", { name: "Resources in the project" });
    await poll(() => candidates.getByRole("row").count()).toBe(4);
    expect(await candidates.getByRole("row").filter({ hasText: "eu-game-old" }).textContent()).toContain(
      "Yes: you will be asked",
    );
    expect(await page.getByRole("checkbox", { name: "Move build-box" }).isChecked()).toBe(false);
    expect(await page.getByRole("checkbox", { name: "Move eu-game-1" }).isChecked()).toBe(true);
    await expectAccessible();
    await screenshot(page, "transfer-plan");
    await phoneShot("transfer-plan");
    // Moving with warnings unread is refused in words.
    await page.getByRole("button", { name: "Start transfer" }).click();
    await poll(() => page.getByRole("alert").textContent()).toBe(
      "Read the plan's warnings and tick that you accept them before moving.",
    );
    await page.getByLabel("I have read the warnings and accept them").check();
    await page.getByRole("button", { name: "Start transfer" }).click();
    const acknowledge = page.getByRole("button", { name: "Accept as a fresh install (eu-game-old)" });
    await poll(() => acknowledge.isVisible()).toBe(true);
    await poll(() => page.getByRole("status").first().textContent()).toContain(
      "Waiting for you to acknowledge an item",
    );
    await expectAccessible();
    await screenshot(page, "transfer-progress");
    await acknowledge.click();
    await poll(() => page.getByText("Done: the game is in the campaign's project").isVisible()).toBe(true);
    expect(await page.locator(".items li").allTextContents()).toEqual([
      "eu-game-1: Moved",
      expect.stringMatching(/^eu-game-old: Moved as a fresh install/),
    ]);
  });

  it("watches a player's purchase through the simulator reach the chart, the figures and the table", async () => {
    // The operator lets the link carry credit: now players can buy.
    await server
      .client(OperatorService, "connect", TEST_OPERATOR_TOKEN)
      .setOutstandingLimit({ name: state.link, outstandingLimit: usd(500n) });
    await go(`/campaigns/${state.campaignId}`);
    await poll(() => page.getByText("Players can buy now.").first().isVisible()).toBe(true);
    await poll(() => page.getByText("No purchases yet.").isVisible()).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const todayRow = page.locator(".chart tbody tr").filter({ hasText: today });
    await page.getByText("The figures, day by day").click();
    await poll(() => todayRow.locator("td").nth(2).textContent()).toBe("0");

    // A player buys in the game: begin, the overlay approved in the simulator, complete.
    const key = (await server.client(CampaignService, "connect", ownerKey).getCampaign({ name: state.campaign }))
      .campaignKey;
    const offers = await server.rest("POST", "/v1/public/offers:list", { campaignKey: key });
    const player = await mintPlayer(sim.control, APP_ID);
    const begun = await server.rest("POST", "/v1/public/purchases:begin", {
      campaignKey: key,
      offerId: offers.body.offers[0].offerId,
      authTicket: player.ticket,
      requestId: "console-purchase-1",
    });
    expect(begun.status).toBe(200);
    await sim.control.approveOrder(begun.body.orderId);
    const completed = await server.rest("POST", "/v1/public/purchases:complete", {
      campaignKey: key,
      purchase: begun.body.purchase,
      orderId: begun.body.orderId,
      authorized: true,
    });
    expect(completed.body.state).toBe("STATE_CREDITED");

    // Without a reload: the page reads again on its own.
    const recent = page.locator("section").filter({ has: page.getByRole("heading", { name: "Recent purchases" }) });
    await poll(() => recent.locator("tbody tr").first().textContent()).toContain("Credited");
    expect(await recent.locator("tbody tr").first().textContent()).toContain("$10.00$7.00");
    await poll(() => todayRow.locator("td").nth(2).textContent()).toBe("1");
    expect(await todayRow.locator("td").nth(0).textContent()).toBe("$7.00");
    expect(await todayRow.locator("td").nth(3).textContent()).toBe("$7.00");
    const figures = page.getByRole("definition").filter({ hasText: "credit" });
    await poll(() => figures.first().textContent()).toBe("1 ($7.00 credit)");
    await poll(() => page.locator(".player-view").textContent()).toContain("Balance$7.00");
    await page.getByText("The figures, day by day").click();
    await expectAccessible();
    await screenshot(page, "campaign");
    await phoneShot("campaign");
  });

  it("filters purchases by state and day, newest first, in pages", async () => {
    await page.getByRole("link", { name: "Purchases", exact: true }).click();
    const rows = page.locator("table.purchases tbody tr");
    await poll(() => rows.count()).toBe(1);
    await page.getByLabel("State").selectOption({ label: "Failed" });
    await poll(() => page.getByText("No purchase matches these filters.").isVisible()).toBe(true);
    await page.getByLabel("State").selectOption({ label: "Credited" });
    await poll(() => rows.count()).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel("From (UTC day)").fill(today);
    await page.getByLabel("To (UTC day, included)").fill(today);
    await poll(() => rows.count()).toBe(1);
    expect(await page.getByRole("button", { name: "Older" }).isDisabled()).toBe(true);
    await page.getByLabel("From (UTC day)").fill("2020-01-01");
    await page.getByLabel("To (UTC day, included)").fill("2020-01-02");
    await poll(() => page.getByText("No purchase matches these filters.").isVisible()).toBe(true);
    await page.getByLabel("From (UTC day)").fill("");
    await page.getByLabel("To (UTC day, included)").fill("");
    await poll(() => rows.count()).toBe(1);
    await expectAccessible();
    await screenshot(page, "purchases");
    await phoneShot("purchases");
  });

  it("turns web funding on and off with a labelled switch, shows the page's link to copy and preview, and marks web purchases", async () => {
    await go(`/campaigns/${state.campaignId}`);
    const owners = server.client(CampaignService, "connect", ownerKey);
    const read = () => owners.getCampaign({ name: state.campaign });
    const toggle = page.getByRole("switch", { name: "Web funding" });
    await poll(() => toggle.isVisible()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    const section = page
      .locator("section")
      .filter({ has: page.getByRole("heading", { name: "Funding from the web" }) });
    expect(await section.textContent()).toContain("Off: the page says so and sells nothing.");
    // The link is there while web funding is off, so the studio can check the page first.
    const uri = (await read()).webFundingUri;
    expect(uri).toMatch(/\/fund\/ck_[A-Za-z0-9_-]+$/);
    expect(await page.getByLabel("Page link").inputValue()).toBe(uri);
    const preview = page.getByRole("link", { name: "Preview the page (new tab)" });
    expect([await preview.getAttribute("href"), await preview.getAttribute("target")]).toEqual([uri, "_blank"]);
    // The keyboard alone turns it on; the etag the page read makes the write.
    await toggle.focus();
    await page.keyboard.press("Space");
    await poll(async () => (await read()).webFundingEnabled).toBe(true);
    await poll(() => toggle.isChecked()).toBe(true);
    await poll(() => section.textContent()).toContain("On: the page sells the offers.");
    await owner.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await page.getByRole("button", { name: "Copy link" }).click();
    await poll(() => section.getByText("Copied to the clipboard.").isVisible()).toBe(true);
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(uri);
    await expectAccessible();
    await screenshot(page, "campaign-web-funding");
    await phoneShot("campaign-web-funding");
    await toggle.click();
    await poll(async () => (await read()).webFundingEnabled).toBe(false);
    await poll(() => toggle.isChecked()).toBe(false);

    // A web order whose player never came back from Steam, as the settlement leaves it.
    const db = server.db.database.prisma;
    const campaign = await db.campaign.findUniqueOrThrow({
      where: { id: state.campaignId },
      include: { offers: true },
    });
    const offer = campaign.offers[0];
    await db.purchase.create({
      data: {
        id: randomUUID(),
        campaignId: campaign.id,
        offerId: offer?.id ?? "",
        linkId: campaign.linkId,
        orderId: BigInt(Date.now()),
        playerId: "76561198000000777",
        state: "ABANDONED",
        channel: "WEB",
        priceNanos: offer?.priceNanos ?? 0n,
        creditNanos: offer?.creditNanos ?? 0n,
        sandbox: false,
        language: "en",
      },
    });
    await page.getByRole("link", { name: "Purchases", exact: true }).click();
    const rows = page.locator("table.purchases tbody tr");
    await poll(() => rows.count()).toBe(2);
    const boughtIn = (row: number) => rows.nth(row).locator("td").nth(1).textContent();
    expect([await rows.first().locator("td").first().textContent(), await boughtIn(0)]).toEqual([
      "Abandoned: the player never came back from Steam",
      "Web",
    ]);
    expect([await rows.nth(1).locator("td").first().textContent(), await boughtIn(1)]).toEqual(["Credited", "Game"]);
    await page.getByLabel("Bought in").selectOption({ label: "Game" });
    await poll(() => rows.count()).toBe(1);
    expect(await boughtIn(0)).toBe("Game");
    await page.getByLabel("Bought in").selectOption({ label: "Web" });
    await page.getByLabel("State").selectOption({ label: "Abandoned: the player never came back from Steam" });
    await poll(() => rows.count()).toBe(1);
    expect(await boughtIn(0)).toBe("Web");
    await page.getByLabel("State").selectOption({ label: "Credited" });
    await poll(() => page.getByText("No purchase matches these filters.").isVisible()).toBe(true);
    await expectAccessible();
    await page.getByLabel("State").selectOption({ label: "Any state" });
    await page.getByLabel("Bought in").selectOption({ label: "The game or the web" });
    await poll(() => rows.count()).toBe(2);
  });

  it("rotates a link's key and shows what the link owes", async () => {
    await page.getByRole("link", { name: "Distributor links" }).click();
    const card = page.getByRole("article").filter({ hasText: "Key fingerprint" });
    await poll(() => card.textContent()).toMatch(/Outstanding\$7\.00/);
    expect(await card.textContent()).toMatch(/Limit\$500\.00/);
    const before = await card.locator("code").textContent();
    await page.getByLabel("New publisher key").fill(ROTATED_KEY);
    await page.getByRole("button", { name: "Rotate key" }).click();
    await poll(() => page.getByText("Key rotated").isVisible()).toBe(true);
    await poll(() => card.locator("code").textContent()).not.toBe(before);
    expect(await page.content()).not.toContain(ROTATED_KEY);
    await expectAccessible();
    await screenshot(page, "links");
    await phoneShot("links");
  });

  it("adds a webhook endpoint, shows its secret once, delivers, redelivers, edits, disables, rotates and deletes", async () => {
    await owner.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await page.getByRole("link", { name: "Webhooks" }).click();
    await poll(() => page.getByText("No webhook endpoint yet.").isVisible()).toBe(true);
    const eventBox = (words: string) => page.getByRole("checkbox", { name: new RegExp(`^${words}`) });
    // An address the service may not send to is refused in the service's words.
    await page.getByLabel("URL (https)").fill("http://10.1.2.3/hooks");
    await eventBox("The operator recorded a settlement").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^Please check: .*10\.1\.2\.3/);
    await page.getByLabel("URL (https)").fill(receiver.url);
    await page.getByLabel("Description").fill("Our Discord bot");
    await eventBox("A purchase was credited").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    // The signing secret, once, with a copy button.
    const secretBox = page.locator(".secret-value");
    await poll(() => secretBox.textContent()).toMatch(/^whsec_/);
    const secret = (await secretBox.textContent()) ?? "";
    expect(await page.getByRole("heading", { name: "Signing secret: you will not see this again" }).count()).toBe(1);
    await page.getByRole("button", { name: "Copy secret" }).click();
    await poll(() => page.getByText("Copied to the clipboard.").isVisible()).toBe(true);
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(secret);
    await expectAccessible();
    await page.getByRole("button", { name: "I have stored it" }).click();
    await poll(() => secretBox.count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const card = page.getByRole("article").filter({ hasText: "Our Discord bot" });
    await poll(() => card.textContent()).toContain("Active");
    expect(await card.locator(".events li").allTextContents()).toEqual([
      "A purchase was credited purchase.credited",
      "The operator recorded a settlement settlement.recorded",
    ]);

    // An event: the operator records a settlement on the link; a pass of the delivery job sends it.
    await server
      .client(OperatorService, "connect", TEST_OPERATOR_TOKEN)
      .recordSettlement({ parent: state.link, amount: usd(2n), reference: "console-settlement-1" });
    await drain(server.app.webhookDelivery);
    expect(receiver.received.map((r) => r.envelope.type)).toEqual(["settlement.recorded"]);
    expect(receiver.allSignedWith(secret)).toBe(true);
    await card.getByText("Deliveries", { exact: true }).click();
    const delivery = card.locator("table.deliveries tbody tr");
    await poll(() => delivery.count()).toBe(1);
    const cells = delivery.first().locator("td");
    // State, status code, latency, attempts, last attempt, next retry.
    await poll(() => cells.nth(0).textContent()).toBe("Delivered");
    expect(await cells.nth(1).textContent()).toBe("200");
    expect(await cells.nth(2).textContent()).toMatch(/^\d+ ms$/);
    expect(await cells.nth(3).textContent()).toBe("1");
    expect(await cells.nth(5).textContent()).toBe("—");
    // The receiver is down: redelivered, the same event fails and waits for its next attempt.
    receiver.status = 503;
    await delivery
      .first()
      .getByRole("button", { name: /^Redeliver settlement\.recorded evt_/ })
      .click();
    await poll(() => card.getByText("Queued again.").isVisible()).toBe(true);
    await drain(server.app.webhookDelivery);
    await poll(() => cells.nth(1).textContent()).toBe("503");
    expect(await cells.nth(0).textContent()).toBe("Not delivered yet: will retry");
    expect(await cells.nth(3).textContent()).toBe("1");
    expect(await cells.nth(5).textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    receiver.status = 200;

    // Disabled, nothing is redelivered (refused in words); enabled again.
    await card.getByRole("button", { name: "Disable" }).click();
    await poll(() => card.locator(".badge").textContent()).toBe("Disabled: nothing is sent");
    await delivery
      .first()
      .getByRole("button", { name: /^Redeliver/ })
      .click();
    await poll(() => card.getByRole("alert").textContent()).toBe(
      "The endpoint is disabled: enable it before redelivering.",
    );
    await card.getByRole("button", { name: "Enable" }).click();
    await poll(() => card.locator(".badge").textContent()).toBe("Active");

    // Edited: a description and one more event type.
    await card.getByRole("button", { name: "Edit" }).click();
    await card.getByLabel("Description").fill("Our Discord bot and pager");
    await card.getByRole("checkbox", { name: /^A transfer is done/ }).check();
    await card.getByRole("button", { name: "Save endpoint" }).click();
    const edited = page.getByRole("article").filter({ hasText: "Our Discord bot and pager" });
    await poll(() => edited.locator(".events li").count()).toBe(3);

    // The secret rotated: a new one, once; the previous one still signs for a while.
    await edited.getByRole("button", { name: "Rotate secret" }).click();
    await poll(() => secretBox.textContent()).toMatch(/^whsec_/);
    const rotated = (await secretBox.textContent()) ?? "";
    expect(rotated).not.toBe(secret);
    await expectAccessible();
    await screenshot(page, "webhooks");
    await page.getByRole("button", { name: "I have stored it" }).click();
    await poll(() => edited.textContent()).toContain("The previous secret still signs until");
    expect(await page.content()).not.toContain(rotated);
    await phoneShot("webhooks");

    // A second endpoint, deleted after a confirmation.
    await page.getByLabel("URL (https)").fill(`${receiver.url}/old`);
    await eventBox("All events").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("button", { name: "I have stored it" }).click();
    const old = page.getByRole("article").filter({ hasText: `${receiver.url}/old` });
    await poll(() => old.count()).toBe(1);
    expect(await old.locator(".events li").count()).toBe(12);
    await old.getByRole("button", { name: "Delete endpoint" }).click();
    await old.getByRole("button", { name: `Yes, delete ${receiver.url}/old` }).click();
    await poll(() => page.getByRole("article").count()).toBe(1);
    const left = await server.client(WebhookService, "connect", ownerKey).listWebhookEndpoints({ parent: account });
    expect(left.webhookEndpoints.map((e) => e.description)).toEqual(["Our Discord bot and pager"]);
  });

  it("shows a viewer, signed in with a session, everything they may read and no control they may not use", async () => {
    const session = await createMemberSession(
      server,
      { name: account, accountId: "", ownerKey },
      {
        email: "viewer@spacewar.example",
        role: Role.VIEWER,
      },
    );
    const viewer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const view = await viewer.newPage();
    await view.goto(`${server.baseUrl}/console/`);
    await view.getByLabel("API key or session token").fill(session.token);
    await view.getByRole("button", { name: "Sign in" }).click();
    await poll(() => view.getByText("Spacewar Studio · viewer").isVisible()).toBe(true);
    await poll(() => view.getByRole("article").count()).toBe(1);
    expect(await view.getByRole("heading", { name: "Declare a campaign" }).count()).toBe(0);
    expect(await view.getByRole("button").allTextContents()).toEqual(["Sign out"]);

    await view.getByRole("link", { name: "Keep Spacewar alive" }).click();
    await poll(() => view.getByRole("row").filter({ hasText: "A month of servers" }).count()).toBe(1);
    await poll(() => view.locator("table.purchases tbody tr").count()).toBe(2);
    // No funding (encore.funding.get is owner and billing), no editor, no transfer, no visibility.
    expect(await view.getByRole("heading", { name: "Funding", exact: true }).count()).toBe(0);
    expect(await view.getByRole("heading", { name: "New offer" }).count()).toBe(0);
    expect(await view.getByRole("link", { name: /Transfer/ }).count()).toBe(0);
    expect(await view.getByRole("button").allTextContents()).toEqual(["Sign out", "Copy link"]);
    expect(await view.getByRole("combobox").count()).toBe(0);
    // Web funding is read, never switched: its state in words, its link to copy.
    expect(await view.getByRole("switch").count()).toBe(0);
    expect(await view.getByText("Web funding: off.").isVisible()).toBe(true);
    await expectAccessible(view);
    await view.screenshot({ path: "test-results/console-viewer-campaign.png", fullPage: true });

    await view.getByRole("link", { name: "Distributor links" }).click();
    await poll(() => view.getByText("Key fingerprint").isVisible()).toBe(true);
    expect(await view.getByLabel("New publisher key").count()).toBe(0);
    expect(await view.getByRole("heading", { name: "Link a Steam publisher key" }).count()).toBe(0);
    // Webhooks are read, never changed: the endpoint and its deliveries, no control.
    await view.getByRole("link", { name: "Webhooks" }).click();
    const endpoint = view.getByRole("article").filter({ hasText: "Our Discord bot and pager" });
    await poll(() => endpoint.count()).toBe(1);
    await endpoint.getByText("Deliveries", { exact: true }).click();
    await poll(() => endpoint.locator("table.deliveries tbody tr").count()).toBe(1);
    expect(await view.getByRole("heading", { name: "Add an endpoint" }).count()).toBe(0);
    expect(await view.getByRole("button").allTextContents()).toEqual(["Sign out", "Newer", "Older"]);
    expect(await view.getByRole("checkbox").count()).toBe(0);
    await expectAccessible(view);

    // No audit log (audit.auditEvents.list is owner and admin): neither in the navigation nor routed.
    expect(await view.getByRole("link", { name: "Audit log" }).count()).toBe(0);
    await view.goto(`${server.baseUrl}/console/audit-log`);
    await poll(() => view.getByRole("heading", { name: "Page not found" }).isVisible()).toBe(true);

    // Signing out forgets the token.
    await view.getByRole("button", { name: "Sign out" }).click();
    await poll(() => view.getByText("Signed out.").isVisible()).toBe(true);
    expect(await view.evaluate("Object.keys(sessionStorage)")).toEqual([]);
    await view.reload();
    await poll(() => view.getByLabel("API key or session token").isVisible()).toBe(true);

    // A session that stops working (its member removed) signs the console out at its next call.
    await view.getByLabel("API key or session token").fill(session.token);
    await view.getByRole("button", { name: "Sign in" }).click();
    await poll(() => view.getByText("Spacewar Studio · viewer").isVisible()).toBe(true);
    await server.client(AccountService, "connect", ownerKey).deleteMember({ name: session.member });
    await view.getByRole("link", { name: "Purchases", exact: true }).click();
    await poll(() => view.getByText("Your key or session is no longer valid: sign in again.").isVisible()).toBe(true);
    expect(await view.evaluate("Object.keys(sessionStorage)")).toEqual([]);
    await viewer.close();
  });

  it("shows the owner the audit log: its writes, newest first, with actor, filtered by resource, day and actor", async () => {
    await go("/");
    await page.getByRole("link", { name: "Audit log" }).click();
    await poll(() => page.getByRole("heading", { name: "Audit log", level: 1 }).isVisible()).toBe(true);
    const rows = page.locator("table.audit tbody tr");
    // Newest first: the member the owner removed last, then the link's key rotation, ... the link's creation.
    await poll(() => rows.first().textContent()).toContain("Delete member");
    const actions = await rows.locator("td:nth-of-type(2)").allTextContents();
    const rotated = actions.findIndex((text) => text.startsWith("Update distributor link"));
    const linked = actions.findIndex((text) => text.startsWith("Create distributor link"));
    expect(rotated).toBeGreaterThan(0);
    expect(linked).toBeGreaterThan(rotated);
    // The key rotation: who (the owner's own key, by its name), what, from where, how it ended.
    const rotation = rows.filter({ hasText: "Update distributor link" });
    const rotationText = (await rotation.textContent()) ?? "";
    expect(rotationText).toContain("API key “First owner key” (you)");
    expect(rotationText).toContain(state.link);
    expect(rotationText).toContain("steam.publisher_key");
    expect(rotationText).toMatch(/127\.0\.0\.1|::1/);
    expect(rotationText).toContain("Done");
    expect(await page.content()).not.toContain(ROTATED_KEY);

    // Filtered to the campaign: its creation, the refused offer and the one added, the transfer.
    await page.getByLabel("Resource (full name)").fill(state.campaign ?? "");
    await page.getByRole("button", { name: "Apply filters" }).click();
    const created = rows.filter({ hasText: "Create campaign" });
    await poll(() => created.count()).toBe(1);
    const createdText = (await created.textContent()) ?? "";
    expect(createdText).toContain("API key “First owner key” (you)");
    expect(createdText).toContain(state.campaign);
    expect(createdText).toContain("Done");
    expect(await rows.filter({ hasText: "Create distributor link" }).count()).toBe(0);
    // A refused create is recorded against its parent (a created offer is its own resource).
    expect(await rows.filter({ hasText: "Create offer" }).allTextContents()).toEqual([
      expect.stringContaining("Refused: invalid input"),
    ]);
    const starts = await rows.filter({ hasText: "Start transfer" }).allTextContents();
    expect(starts).toHaveLength(2);
    expect(starts[0]).toContain("Done");
    expect(starts[1]).toContain("Refused");
    expect(await rows.filter({ hasText: "Acknowledge transfer item" }).count()).toBe(1);
    await expectAccessible();
    await screenshot(page, "audit-log");
    await phoneShot("audit-log");

    // A day with nothing in it, then the filters cleared.
    await page.getByLabel("From (UTC day)").fill("2020-01-01");
    await page.getByLabel("To (UTC day, included)").fill("2020-01-02");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await poll(() => page.getByText("No event matches these filters.").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await poll(() => rows.first().textContent()).toContain("Delete member");
    // A row's actor becomes the filter in one keystroke.
    await rows
      .first()
      .getByRole("button", { name: /^Filter by this actor/ })
      .press("Enter");
    await poll(() => page.getByLabel("Actor (API key, member or “operator”)").inputValue()).toMatch(/\/apiKeys\//);
    await poll(async () => (await rows.allTextContents()).every((text) => text.includes("(you)"))).toBe(true);

    // In pages: fifty refused writes later, the fifty newest fill page 1, the rest are older.
    const hooks = server.client(WebhookService, "connect", ownerKey);
    for (let i = 0; i < 50; i++) {
      await expect(hooks.deleteWebhookEndpoint({ name: `${account}/webhookEndpoints/missing${i}` })).rejects.toThrow();
    }
    await page.getByRole("button", { name: "Clear filters" }).click();
    await poll(() => rows.first().textContent()).toContain("Delete webhook endpoint");
    expect(await rows.count()).toBe(50);
    expect(await rows.filter({ hasText: "Delete webhook endpoint" }).count()).toBe(50);
    await page.getByRole("button", { name: "Older" }).click();
    await poll(() => page.locator(".pager span").textContent()).toBe("Page 2");
    await poll(() => rows.first().textContent()).toContain("Delete member");
    expect(await rows.filter({ hasText: "Create distributor link" }).count()).toBe(1);
    await page.getByRole("button", { name: "Newer" }).click();
    await poll(() => page.locator(".pager span").textContent()).toBe("Page 1");
    expect(await page.getByRole("button", { name: "Newer" }).isDisabled()).toBe(true);
  });

  it("answers every page with the strict CSP and makes no request to any other origin", async () => {
    for (const path of [
      "/",
      `/campaigns/${state.campaignId}`,
      "/purchases",
      "/links",
      "/webhooks",
      "/audit-log",
      "/no-such-page",
    ]) {
      const response = await page.goto(`${server.baseUrl}/console${path}`);
      expect(response?.headers()["content-security-policy"]).toBe(CONSOLE_CSP);
      await poll(() => page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    }
    // Every request of every test's owner page, sign-in to sign-out.
    const origins = new Set(requests.map((url) => new URL(url).origin));
    expect([...origins]).toEqual([server.baseUrl]);
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
