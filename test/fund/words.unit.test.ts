import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "../../src/fund/html.js";
import { dollars, fundingWords } from "../../src/fund/words.js";

describe("the funding page's words", () => {
  it("writes dollars from nanos by whole cents, with thousands separated", () => {
    expect(dollars(0n)).toBe("$0.00");
    expect(dollars(4_990_000_000n)).toBe("$4.99");
    expect(dollars(1_234_567_000_000_000n)).toBe("$1,234,567.00");
    expect(dollars(-1_500_000_000n)).toBe("-$1.50");
  });

  it("says only what the visibility shows", () => {
    const base = { purchasable: true, unavailableReason: "" as const };
    expect(
      fundingWords({
        ...base,
        funded: true,
        balanceNanos: 5n * 10n ** 9n,
        runwayDays: 3n,
        visibility: "EXACT_BALANCE",
      }),
    ).toEqual(["Balance: $5.00", "About 3 days of funding left at last week's rate."]);
    expect(
      fundingWords({ ...base, funded: true, balanceNanos: undefined, runwayDays: 0n, visibility: "RUNWAY" }),
    ).toEqual(["The servers are funded.", "Less than a day of funding left at last week's rate."]);
    expect(
      fundingWords({
        ...base,
        funded: false,
        balanceNanos: undefined,
        runwayDays: undefined,
        visibility: "FUNDED_ONLY",
      }),
    ).toEqual(["The servers are not funded yet."]);
  });

  it("escapes every value put in markup, and only those", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    const inner = html`<b>${"<i>"}</b>`;
    expect(html`<p>${inner}${["<", html`<br>`]}${undefined}${false}${0}</p>`.text).toBe(
      "<p><b>&lt;i&gt;</b>&lt;<br>0</p>",
    );
  });
});
