import * as http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FundFixture, startFundFixture } from "./fund-fixture.js";

// The campaign's public funding page as served (GET /fund/{key}): what it says of funding (only
// what the campaign's visibility shows, as funding:get), its offers, whether and why it cannot be
// bought from, and the headers of a payment page.

const DOLLAR = 1_000_000_000n;

describe("the funding page", () => {
  let f: FundFixture;
  beforeAll(async () => {
    f = await startFundFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const get = (key: string) => f.browser().get(`/fund/${encodeURIComponent(key)}`);

  it("names the game and lists the active offers with their prices, cheapest first, every text escaped", async () => {
    const shop = await f.shop({
      offer: { priceNanos: 9_990_000_000n, creditNanos: 8n * DOLLAR, displayName: "<b>Big</b> & bold" },
    });
    await f.db.offer.create({
      data: {
        id: "offer-small",
        campaignId: shop.campaignId,
        displayName: "Small",
        description: "A week",
        priceNanos: 1_990_000_000n,
        creditNanos: DOLLAR,
        active: true,
      },
    });
    await f.db.offer.create({
      data: {
        id: "offer-gone",
        campaignId: shop.campaignId,
        displayName: "Gone",
        priceNanos: DOLLAR,
        creditNanos: DOLLAR,
        active: false,
      },
    });
    const page = await get(shop.campaignKey);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const game = await f.db.game.findFirstOrThrow({ where: { campaigns: { some: { id: shop.campaignId } } } });
    expect(page.text).toContain(`<h1>Fund ${game.displayName}</h1>`);
    expect(page.text).toContain("&lt;b&gt;Big&lt;/b&gt; &amp; bold");
    expect(page.text).not.toContain("<b>Big</b>");
    expect(page.text.indexOf("$1.99")).toBeLessThan(page.text.indexOf("$9.99"));
    expect(page.text).not.toContain("Gone");
    // The credit an offer carries is never shown (spec 2.4).
    expect(page.text).not.toContain("$8.00");
    expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.text).not.toContain("<script");
    expect(page.text).not.toContain("style=");
  });

  it("shows funding only as the campaign's visibility allows, as funding:get", async () => {
    const exact = await f.shop({ visibility: "EXACT_BALANCE", balanceNanos: 1234n * DOLLAR });
    expect((await get(exact.campaignKey)).text).toContain("Balance: $1,234.00");
    const runway = await f.shop({ visibility: "RUNWAY", balanceNanos: 1234n * DOLLAR });
    const runwayPage = (await get(runway.campaignKey)).text;
    expect(runwayPage).not.toContain("1,234");
    expect(runwayPage).toContain("The servers are funded.");
    const fundedOnly = await f.shop({ visibility: "FUNDED_ONLY", balanceNanos: 0n });
    const fundedOnlyPage = (await get(fundedOnly.campaignKey)).text;
    expect(fundedOnlyPage).toContain("The servers are not funded yet.");
    expect(fundedOnlyPage).not.toContain("$0.00");
    expect(fundedOnlyPage).not.toContain("left at last week");
  });

  it("says why a campaign cannot be bought from, with no way to buy or sign in", async () => {
    const cases = [
      [{ state: "IN_REVIEW" as const }, "has not been verified"],
      [{ ready: false }, "have not moved into it"],
      [{ linkState: "CREDENTIAL_INVALID" as const }, "Steam connection is not working"],
      [{ outstandingLimitNanos: 0n }, "taken as much as it can"],
    ] as const;
    for (const [options, words] of cases) {
      const shop = await f.shop(options);
      const page = (await get(shop.campaignKey)).text;
      expect(page, words).toContain(words);
      expect(page).not.toContain("Sign in through Steam</button>");
      expect(page).not.toContain("Buy for");
    }
  });

  it("says web funding is off, and offers no sign-in, when the studio has not turned it on", async () => {
    const shop = await f.shop({ webFunding: false });
    const page = await get(shop.campaignKey);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Funding from the web is turned off for this campaign.");
    expect(page.text).not.toContain("<form");
  });

  it("answers an unknown campaign, path or method with a 404 page", async () => {
    for (const path of ["/fund/ck_nobody", "/fund/", "/fund", "/fund/x/y/z", "/fund/%E0%A4%A"]) {
      const page = await f.browser().get(path);
      expect(page.status, path).toBe(404);
      expect(page.text, path).toContain("<h1>Not found</h1>");
    }
    const shop = await f.shop();
    const put = await fetch(`${f.publicUrl}/fund/${shop.campaignKey}`, { method: "PUT" });
    expect(put.status).toBe(404);
  });

  it("is served as a payment page: the console's CSP with Steam's origins as form targets, never framed, no-store, no referrer to others", async () => {
    const shop = await f.shop();
    for (const path of [`/fund/${shop.campaignKey}`, "/fund/ck_nobody", "/fund/assets/fund.css"]) {
      const { headers } = await f.browser().get(path);
      const csp = headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain(`form-action 'self' ${new URL(f.sim.openIdUrl).origin}`);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("base-uri 'none'");
      expect(headers.get("referrer-policy"), path).toBe("same-origin");
      expect(headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(headers.get("cache-control"), path).toBe("no-store");
    }
    const css = await f.browser().get("/fund/assets/fund.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("is served over HTTP/2 (h2c) as over HTTP/1.1, with the same headers of a payment page", async () => {
    const shop = await f.shop({});
    const overHttp1 = await get(shop.campaignKey);
    const session = http2.connect(f.publicUrl);
    try {
      const { headers, body } = await new Promise<{ headers: http2.IncomingHttpHeaders; body: string }>(
        (resolve, reject) => {
          session.on("error", reject);
          const stream = session.request({ ":path": `/fund/${encodeURIComponent(shop.campaignKey)}` });
          let text = "";
          let received: http2.IncomingHttpHeaders = {};
          stream.setEncoding("utf8");
          stream.on("response", (h) => {
            received = h;
          });
          stream.on("data", (chunk: string) => {
            text += chunk;
          });
          stream.on("end", () => resolve({ headers: received, body: text }));
          stream.on("error", reject);
        },
      );
      expect(headers[":status"]).toBe(200);
      expect(headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(headers["content-security-policy"]).toBe(overHttp1.headers.get("content-security-policy"));
      expect(body).toBe(overHttp1.text);
    } finally {
      session.close();
    }
  });
});
