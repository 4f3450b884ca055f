import { createServer } from "node:net";
import { loadConfig } from "../../src/config.js";
import { createSettlementSweeper, type SweepReport } from "../../src/jobs/settlement-sweeper.js";
import { createSteamClient } from "../../src/platform/steam/create-steam-client.js";
import { type SteamSimulator, startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import type { Db } from "../../src/store/open-database.js";
import type { SeedCampaignOptions, SeedOfferOptions } from "../support/seed.js";
import { type SeededShop, seedShop } from "../support/seed-purchases.js";
import { testServiceDeps } from "../support/service-deps.js";
import { startTestServer, TEST_MASTER_KEY, type TestServer } from "../support/test-server.js";

// The service with its funding page at PUBLIC_URL, Steam played by the simulator (its OpenID
// provider included), and a browser-like client that keeps cookies and follows nothing on its own.

export interface FundFixture {
  sim: SteamSimulator;
  server: TestServer;
  db: Db;
  /** PUBLIC_URL: the origin the page is served at. */
  publicUrl: string;
  /** A campaign ready to sell, web funding on unless `webFunding: false`. */
  shop(options?: SeedCampaignOptions & { offer?: SeedOfferOptions; webFunding?: boolean }): Promise<SeededShop>;
  /** A browser of its own (its own cookies). */
  browser(): FundBrowser;
  /** One pass of a settlement sweeper of its own, on a clock at `now`. */
  sweep(now: Date): Promise<SweepReport>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, absolute. */
  location: string | undefined;
}

export interface FundBrowser {
  /** GET a path of the service, or an absolute URL. */
  get(url: string): Promise<Answer>;
  /** POSTs a form as the page's own would (Origin: PUBLIC_URL, unless `origin` says otherwise; null: none). */
  post(url: string, form: Record<string, string>, options?: { origin?: string | null }): Promise<Answer>;
  /** Opens a page and reads the hidden fields of the forms it holds, by action. */
  forms(path: string): Promise<Map<string, Record<string, string>[]>>;
  /** Signs in as `steamid` through the provider (its control route stands in for the sign-in page). */
  signIn(campaignKey: string, steamid: string): Promise<Answer>;
  /** The session cookie's value, if the browser holds one. */
  sessionCookie(): string | undefined;
  setSessionCookie(value: string | undefined): void;
}

// Short, so platform faults end quickly.
const STEAM_TIMEOUT_MS = 1000;

export async function startFundFixture(env: Record<string, string> = {}): Promise<FundFixture> {
  const sim = await startSteamSimulator({ port: 0 });
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const fullEnv = {
    STEAM_API_URL: sim.url,
    STEAM_STORE_URL: sim.storeUrl,
    STEAM_OPENID_URL: sim.openIdUrl,
    STEAM_TIMEOUT_MS: String(STEAM_TIMEOUT_MS),
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: "silent",
    ...env,
  };
  const server = await startTestServer({ port, env: fullEnv });
  const db = server.db.database.prisma;
  const config = loadConfig(fullEnv);
  const steam = createSteamClient({
    apiUrl: sim.url,
    storeUrl: sim.storeUrl,
    openIdUrl: sim.openIdUrl,
    timeoutMs: STEAM_TIMEOUT_MS,
    readRetries: 0,
  });
  return {
    sim,
    server,
    db,
    publicUrl,
    async shop(options = {}) {
      const shop = await seedShop(db, sim.control, TEST_MASTER_KEY, options);
      if (options.webFunding !== false) {
        await db.campaign.update({ where: { id: shop.campaignId }, data: { webFundingEnabled: true } });
      }
      return shop;
    },
    browser: () => createBrowser(publicUrl, sim),
    async sweep(now) {
      const deps = testServiceDeps({ db, config, steam, now: () => now });
      const sweeper = createSettlementSweeper({ deps, ...config.settlement });
      try {
        return await sweeper.runOnce();
      } finally {
        await sweeper.stop();
      }
    },
    async close() {
      await steam.close();
      await server.close();
      await sim.close();
    },
  };
}

function createBrowser(publicUrl: string, sim: SteamSimulator): FundBrowser {
  let session: string | undefined;
  const absolute = (url: string) => (url.startsWith("http") ? url : `${publicUrl}${url}`);
  const answer = async (response: Response): Promise<Answer> => {
    const setCookie = response.headers.get("set-cookie");
    const value = setCookie && /^fund_session=([^;]*)/.exec(setCookie)?.[1];
    if (value !== undefined && value !== null) session = value === "" ? undefined : value;
    const location = response.headers.get("location");
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: location === null ? undefined : new URL(location, response.url).href,
    };
  };
  const cookieHeader = (url: string): Record<string, string> =>
    session && new URL(url).pathname.startsWith("/fund") ? { cookie: `fund_session=${session}` } : {};
  const browser: FundBrowser = {
    async get(url) {
      const target = absolute(url);
      return answer(await fetch(target, { redirect: "manual", headers: cookieHeader(target) }));
    },
    async post(url, form, options = {}) {
      const target = absolute(url);
      const origin = options.origin === undefined ? publicUrl : options.origin;
      return answer(
        await fetch(target, {
          method: "POST",
          redirect: "manual",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            ...(origin === null ? {} : { origin }),
            ...cookieHeader(target),
          },
          body: new URLSearchParams(form).toString(),
        }),
      );
    },
    async forms(path) {
      const page = await browser.get(path);
      const forms = new Map<string, Record<string, string>[]>();
      for (const match of page.text.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)) {
        const fields: Record<string, string> = {};
        for (const input of (match[2] ?? "").matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
          fields[input[1] as string] = input[2] as string;
        }
        const action = match[1] as string;
        forms.set(action, [...(forms.get(action) ?? []), fields]);
      }
      return forms;
    },
    async signIn(campaignKey, steamid) {
      const started = await browser.post(`/fund/${encodeURIComponent(campaignKey)}/sign-in`, {});
      const returnTo = new URL(started.location ?? "").searchParams.get("openid.return_to") ?? "";
      const assertion = await sim.control.makeOpenIdAssertion({ steamid, returnTo });
      return browser.get(assertion.returnUrl);
    },
    sessionCookie: () => session,
    setSessionCookie(value) {
      session = value;
    },
  };
  return browser;
}

/** A port free now (the server takes it next; PUBLIC_URL must name it before it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
