import { describe, expect, it } from "vitest";
import {
  canMove,
  isFinal,
  MOVES_INTO,
  type OrderStatus,
  type PurchaseState,
  repeatedBeginAnswer,
  START_STATE,
  settlementStep,
  stateAfter,
  UNPAID_ENDS,
  unapprovedStep,
  webOrderStep,
} from "../../src/domain/purchase-state.js";

const STATES: PurchaseState[] = ["INITIATED", "AUTHORIZED", "CREDITED", "CANCELLED", "FAILED", "ABANDONED"];

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
    ["INITIATED", ["AUTHORIZED", "CREDITED", "CANCELLED", "FAILED", "ABANDONED"]],
    ["AUTHORIZED", ["CREDITED", "CANCELLED", "FAILED"]],
    ["CREDITED", []],
    ["CANCELLED", []],
    ["FAILED", []],
    ["ABANDONED", []],
  ] as const)("from %s may move to %j only", (from, allowed) => {
    for (const to of STATES) expect(canMove(from, to)).toBe((allowed as readonly string[]).includes(to));
  });

  it("has exactly four final states", () => {
    expect(STATES.filter(isFinal)).toEqual(["CREDITED", "CANCELLED", "FAILED", "ABANDONED"]);
  });

  it("begins in the one state no move leads into, and ends unpaid in every final state but CREDITED", () => {
    expect(STATES.filter((state) => MOVES_INTO[state].length === 0)).toEqual([START_STATE]);
    expect(UNPAID_ENDS).toEqual(STATES.filter((state) => isFinal(state) && state !== "CREDITED"));
  });

  // The first attempt's purchase: its state, whether its order was opened (the platform's
  // transaction id recorded) and whether its InitTxn is over.
  it.each([
    ["INITIATED", true, true, "same-purchase"],
    ["INITIATED", true, false, "same-purchase"],
    ["INITIATED", false, false, "opening"],
    ["INITIATED", false, true, "ask-platform"],
    ["AUTHORIZED", false, false, "same-purchase"],
    ["AUTHORIZED", true, true, "same-purchase"],
    ["CREDITED", true, true, "same-purchase"],
    ["CANCELLED", true, true, "order-refused"],
    ["CANCELLED", false, true, "order-refused"],
    ["FAILED", false, true, "order-refused"],
    ["FAILED", true, false, "order-refused"],
    ["ABANDONED", true, true, "order-refused"],
  ] as const)(
    "answers a repeated begin on a %s purchase (opened %s, InitTxn over %s) with %s",
    (state, opened, initTxnOver, answer) => {
      expect(repeatedBeginAnswer({ state, opened, initTxnOver })).toBe(answer);
    },
  );
});

// Reference 3.1 "Web flow": finalize only when the player came back; abandon otherwise.
describe("web orders (docs/settlement.md, Abandoned web orders)", () => {
  it.each([
    // channel, state, player returned, step, becomes
    ["WEB", "INITIATED", false, "finalize", "wait"],
    ["WEB", "INITIATED", true, "finalize", "finalize"],
    ["WEB", "AUTHORIZED", false, "finalize", "finalize"],
    ["GAME", "INITIATED", false, "finalize", "finalize"],
    ["WEB", "INITIATED", false, "credit", "credit"],
    ["WEB", "INITIATED", false, "fail", "fail"],
    ["WEB", "INITIATED", false, "wait", "wait"],
  ] as const)("a %s order %s (returned %s): %s becomes %s", (channel, state, playerReturned, step, becomes) => {
    expect(webOrderStep(step, { channel, state, playerReturned })).toBe(becomes);
  });

  it("ends an order left unapproved CANCELLED in the game and ABANDONED on the web", () => {
    expect(stateAfter(unapprovedStep("GAME"))).toBe("CANCELLED");
    expect(stateAfter(unapprovedStep("WEB"))).toBe("ABANDONED");
  });
});
