import { describe, expect, it } from "vitest";
import { newOrderId, orderIdFromBytes } from "../../src/domain/order-id.js";
import {
  canMove,
  isFinal,
  type OrderStatus,
  type PurchaseState,
  repeatedBeginAnswer,
  settlementStep,
  stateAfter,
} from "../../src/domain/purchase-state.js";

const STATES: PurchaseState[] = ["INITIATED", "AUTHORIZED", "CREDITED", "CANCELLED", "FAILED"];

describe("purchase state machine (spec 3.1)", () => {
  it.each([
    // status, authorized hint, step, state after
    ["Init", true, "wait", "INITIATED"],
    ["Init", false, "wait", "INITIATED"],
    ["Init", undefined, "wait", "INITIATED"],
    ["Approved", true, "finalize", "AUTHORIZED"],
    ["Approved", false, "finalize", "AUTHORIZED"],
    ["Approved", undefined, "finalize", "AUTHORIZED"],
    ["Succeeded", true, "credit", "CREDITED"],
    ["Succeeded", false, "credit", "CREDITED"],
    ["Succeeded", undefined, "credit", "CREDITED"],
    ["Failed", false, "cancel", "CANCELLED"],
    ["Failed", true, "fail", "FAILED"],
    ["Failed", undefined, "fail", "FAILED"],
    ["Refunded", true, "fail", "FAILED"],
    ["PartialRefund", true, "fail", "FAILED"],
    ["Chargedback", false, "fail", "FAILED"],
    ["RefundedSuspectedFraud", undefined, "fail", "FAILED"],
    ["RefundedFriendlyFraud", true, "fail", "FAILED"],
  ] as const)("platform %s with authorized=%s: %s, then %s", (status, authorized, step, state) => {
    expect(settlementStep(status as OrderStatus, authorized)).toBe(step);
    expect(stateAfter(step)).toBe(state);
  });

  it.each([
    ["INITIATED", ["AUTHORIZED", "CREDITED", "CANCELLED", "FAILED"]],
    ["AUTHORIZED", ["CREDITED", "CANCELLED", "FAILED"]],
    ["CREDITED", []],
    ["CANCELLED", []],
    ["FAILED", []],
  ] as const)("from %s may move to %j only", (from, allowed) => {
    for (const to of STATES) expect(canMove(from, to)).toBe((allowed as readonly string[]).includes(to));
  });

  it("has exactly three final states", () => {
    expect(STATES.filter(isFinal)).toEqual(["CREDITED", "CANCELLED", "FAILED"]);
  });

  it.each([
    ["INITIATED", "same-purchase"],
    ["AUTHORIZED", "same-purchase"],
    ["CREDITED", "same-purchase"],
    ["CANCELLED", "order-refused"],
    ["FAILED", "order-refused"],
  ] as const)("answers a repeated begin on a %s purchase with %s", (state, answer) => {
    expect(repeatedBeginAnswer(state)).toBe(answer);
  });
});

describe("order ids", () => {
  it.each([
    [[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 9_223_372_036_854_775_807n],
    [[0x80, 0, 0, 0, 0, 0, 0, 0], 1n],
    [[0, 0, 0, 0, 0, 0, 0, 0], 1n],
    [[0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0], 0x123456789abcdef0n],
  ])("reads %j as %s (top bit cleared, never 0)", (bytes, expected) => {
    expect(orderIdFromBytes(Uint8Array.from(bytes))).toBe(expected);
  });

  it("makes unsigned 63-bit ids that do not repeat", () => {
    const ids = new Set<bigint>();
    for (let i = 0; i < 10_000; i++) {
      const id = newOrderId();
      expect(id > 0n && id < 2n ** 63n).toBe(true);
      ids.add(id);
    }
    expect(ids.size).toBe(10_000);
  });

  it("refuses anything but 8 bytes", () => {
    expect(() => orderIdFromBytes(new Uint8Array(7))).toThrow(RangeError);
  });
});
