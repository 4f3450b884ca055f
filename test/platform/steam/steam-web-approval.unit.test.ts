import { describe, expect, it } from "vitest";
import { webApprovalUrl } from "../../../src/platform/steam/steam-web-approval.js";

// Reference 3.1 "Web flow": the browser goes to steamurl with `returnurl=<fully specified URL>`.
describe("webApprovalUrl", () => {
  const RETURN = "https://fund.example.com/fund/ck_a/purchases/123/return";

  it("appends returnurl, URL-encoded, to a steamurl without a query", () => {
    expect(webApprovalUrl("https://store.steampowered.com/checkout/approvetxn/42/", RETURN)).toBe(
      "https://store.steampowered.com/checkout/approvetxn/42/?returnurl=https%3A%2F%2Ffund.example.com%2Ffund%2Fck_a%2Fpurchases%2F123%2Freturn",
    );
  });

  it("keeps a steamurl's own query and appends returnurl after it", () => {
    const url = new URL(webApprovalUrl("https://checkout.example/approve?transid=42&l=en", RETURN));
    expect([...url.searchParams]).toEqual([
      ["transid", "42"],
      ["l", "en"],
      ["returnurl", RETURN],
    ]);
  });

  it("carries a return URL with a query and a fragment whole, as one parameter", () => {
    const back = "https://fund.example.com/return?a=1&b=2#top";
    const url = new URL(webApprovalUrl("https://checkout.example/approve/", back));
    expect(url.searchParams.get("returnurl")).toBe(back);
    expect(url.hash).toBe("");
    expect([...url.searchParams.keys()]).toEqual(["returnurl"]);
  });
});
