import { describe, expect, it } from "vitest";
import type { PurchaseRecord } from "../../src/store/purchases.js";
import { createBegunPurchases } from "../../src/usecases/begin/begun-purchases.js";

const purchase = (id: string) => ({ id }) as PurchaseRecord;

describe("the purchases a replica began, kept for their complete", () => {
  it("gives a purchase to one complete only", () => {
    const begun = createBegunPurchases({ max: 10, ttlMs: 60_000 });
    begun.remember(purchase("a"));
    expect(begun.take("a")).toEqual(purchase("a"));
    expect(begun.take("a")).toBeUndefined();
  });

  it("keeps at most `max`, forgetting the oldest", () => {
    const begun = createBegunPurchases({ max: 2, ttlMs: 60_000 });
    for (const id of ["a", "b", "c"]) begun.remember(purchase(id));
    expect([begun.take("a"), begun.take("b")?.id, begun.take("c")?.id]).toEqual([undefined, "b", "c"]);
  });

  it("forgets a purchase older than `ttlMs`", () => {
    let clock = 5_000;
    const begun = createBegunPurchases({ max: 10, ttlMs: 1_000, now: () => clock });
    begun.remember(purchase("a"));
    begun.remember(purchase("b"));
    clock += 999;
    expect(begun.take("a")?.id).toBe("a");
    clock += 2;
    expect(begun.take("b")).toBeUndefined();
  });
});
