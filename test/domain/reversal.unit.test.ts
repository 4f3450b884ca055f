import { describe, expect, it } from "vitest";
import type { OrderStatus } from "../../src/domain/purchase-state.js";
import {
  type ReconciledPurchase,
  type ReportLine,
  reconcileStep,
  reversalKindOf,
  reversedCredit,
} from "../../src/domain/reversal.js";

const line = (amountCents: bigint, itemStatus: string, vatCents = 0n): ReportLine => ({
  amountCents,
  vatCents,
  itemStatus,
});
const CREDIT = 7_000_000_000n; // USD 7

describe("reversalKindOf", () => {
  it.each([
    ["Refunded", "REFUNDED"],
    ["PartialRefund", "PARTIAL_REFUND"],
    ["Chargedback", "CHARGEDBACK"],
    ["RefundedSuspectedFraud", "REFUNDED_SUSPECTED_FRAUD"],
    ["RefundedFriendlyFraud", "REFUNDED_FRIENDLY_FRAUD"],
    ["Succeeded", undefined],
    ["Init", undefined],
    ["Approved", undefined],
    ["Failed", undefined],
    ["RefundedSuspsectedFraud", undefined],
  ])("%s -> %s", (status, kind) => {
    expect(reversalKindOf(status)).toBe(kind);
  });
});

describe("reversedCredit", () => {
  it.each<[string, OrderStatus, ReportLine[], bigint]>([
    ["a full refund takes the whole credit", "Refunded", [line(999n, "Refunded")], CREDIT],
    ["a chargeback takes the whole credit", "Chargedback", [line(999n, "Chargedback")], CREDIT],
    ["a fraud refund takes the whole credit", "RefundedFriendlyFraud", [line(1n, "RefundedFriendlyFraud")], CREDIT],
    ["nothing for a settled order", "Succeeded", [line(999n, "Succeeded")], 0n],
    [
      "a partial refund in proportion to the refunded lines",
      "PartialRefund",
      [line(300n, "Succeeded"), line(700n, "Refunded")],
      4_900_000_000n,
    ],
    [
      "VAT counts with the line's amount",
      "PartialRefund",
      [line(100n, "Succeeded", 100n), line(200n, "Refunded")],
      3_500_000_000n,
    ],
    ["rounded down to the nano-dollar", "PartialRefund", [line(1n, "Refunded"), line(2n, "Succeeded")], 2_333_333_333n],
    ["no refunded line takes nothing", "PartialRefund", [line(1n, "Succeeded")], 0n],
    ["every line refunded takes everything", "PartialRefund", [line(5n, "Refunded"), line(5n, "Chargedback")], CREDIT],
    ["zero-priced lines take nothing", "PartialRefund", [line(0n, "Refunded")], 0n],
  ])("%s", (_name, status, items, expected) => {
    expect(reversedCredit(CREDIT, { status, items })).toBe(expected);
  });
});

describe("reconcileStep", () => {
  const credited = (over: Partial<ReconciledPurchase> = {}): ReconciledPurchase => ({
    state: "CREDITED",
    credited: true,
    creditNanos: CREDIT,
    sandbox: false,
    reversal: undefined,
    ...over,
  });
  const refunded = { status: "Refunded" as const, items: [line(999n, "Refunded")] };
  const succeeded = { status: "Succeeded" as const, items: [line(999n, "Succeeded")] };
  const partial = { status: "PartialRefund" as const, items: [line(500n, "Refunded"), line(500n, "Succeeded")] };

  it("reverses a credited purchase whose order was refunded", () => {
    expect(reconcileStep(credited(), refunded)).toEqual({
      action: "reverse",
      kind: "REFUNDED",
      totalNanos: CREDIT,
      deltaNanos: CREDIT,
    });
  });

  it("records nothing for a reversal seen again", () => {
    const reversal = { kind: "REFUNDED" as const, reversedNanos: CREDIT };
    expect(reconcileStep(credited({ reversal }), refunded)).toEqual({ action: "none" });
  });

  it("takes only the difference when a partial refund becomes a full one", () => {
    const reversal = { kind: "PARTIAL_REFUND" as const, reversedNanos: CREDIT / 2n };
    expect(reconcileStep(credited(), partial)).toMatchObject({ deltaNanos: CREDIT / 2n });
    expect(reconcileStep(credited({ reversal }), partial)).toEqual({ action: "none" });
    expect(reconcileStep(credited({ reversal }), { status: "Chargedback", items: [] })).toEqual({
      action: "reverse",
      kind: "CHARGEDBACK",
      totalNanos: CREDIT,
      deltaNanos: CREDIT / 2n,
    });
  });

  it("records a sandbox reversal with nothing taken back, once", () => {
    expect(reconcileStep(credited({ sandbox: true }), refunded)).toEqual({
      action: "reverse",
      kind: "REFUNDED",
      totalNanos: 0n,
      deltaNanos: 0n,
    });
    const reversal = { kind: "REFUNDED" as const, reversedNanos: 0n };
    expect(reconcileStep(credited({ sandbox: true, reversal }), refunded)).toEqual({ action: "none" });
  });

  it("does nothing for a credited purchase the report shows settled, or partly refunded by nothing", () => {
    expect(reconcileStep(credited(), succeeded)).toEqual({ action: "none" });
    const none = { status: "PartialRefund" as const, items: [line(500n, "Succeeded")] };
    expect(reconcileStep(credited(), none)).toEqual({ action: "none" });
    expect(reconcileStep(credited({ sandbox: true }), none)).toEqual({ action: "none" });
  });

  it.each(["INITIATED", "AUTHORIZED"] as const)(
    "settles an %s purchase the report shows settled or reversed",
    (state) => {
      expect(reconcileStep(credited({ state }), succeeded)).toEqual({ action: "settle" });
      expect(reconcileStep(credited({ state }), refunded)).toEqual({ action: "settle" });
      expect(reconcileStep(credited({ state }), { status: "Approved", items: [] })).toEqual({ action: "none" });
    },
  );

  describe.each(["CANCELLED", "FAILED"] as const)("a %s purchase the platform settled after all", (state) => {
    const ended = (over: Partial<ReconciledPurchase> = {}) => credited({ state, credited: false, ...over });

    it("is credited in full, its state kept, when the report shows it settled", () => {
      expect(reconcileStep(ended(), succeeded)).toEqual({
        action: "creditEnded",
        reversal: undefined,
        why: expect.stringContaining(`stays ${state}`),
      });
    });

    it("is credited with the refunded share reversed when partly refunded", () => {
      expect(reconcileStep(ended(), partial)).toMatchObject({
        action: "creditEnded",
        reversal: { kind: "PARTIAL_REFUND", totalNanos: CREDIT / 2n },
      });
      const none = { status: "PartialRefund" as const, items: [line(500n, "Succeeded")] };
      expect(reconcileStep(ended(), none)).toMatchObject({ action: "creditEnded", reversal: undefined });
      // Sandbox: recorded, nothing taken back.
      expect(reconcileStep(ended({ sandbox: true }), partial)).toMatchObject({
        action: "creditEnded",
        reversal: { kind: "PARTIAL_REFUND", totalNanos: 0n },
      });
    });

    it.each([
      ["Refunded", [line(999n, "Refunded")]],
      ["Chargedback", []],
      ["RefundedSuspectedFraud", []],
      ["PartialRefund", [line(5n, "Refunded"), line(5n, "Refunded")]],
    ] as const)("owes nothing when the platform took all of it back (%s)", (status, items) => {
      expect(reconcileStep(ended(), { status, items })).toEqual({
        action: "nothingOwed",
        why: expect.stringContaining(`took all of it back (${status})`),
      });
    });

    it("is reversed like any credited purchase once credited from the report", () => {
      expect(reconcileStep(ended({ credited: true }), succeeded)).toEqual({ action: "none" });
      expect(reconcileStep(ended({ credited: true }), refunded)).toEqual({
        action: "reverse",
        kind: "REFUNDED",
        totalNanos: CREDIT,
        deltaNanos: CREDIT,
      });
    });

    it("ignores statuses that neither settle nor reverse", () => {
      expect(reconcileStep(ended(), { status: "Failed", items: [] })).toEqual({ action: "none" });
    });
  });
});
