import { describe, expect, it } from "vitest";
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
    ["PartialRefund", true, "credit", "CREDITED"],
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
