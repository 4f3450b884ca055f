import { describe, expect, it } from "vitest";
import { canRetryVerification, decideVerification } from "../../src/domain/campaign-state.js";

describe("decideVerification (spec 3.2)", () => {
  it.each([
    [{ keyOwnsApp: true, removedFromSale: true, endingAnnouncement: "" }, "VERIFIED"],
    [{ keyOwnsApp: true, removedFromSale: false, endingAnnouncement: "Farewell" }, "VERIFIED"],
    [{ keyOwnsApp: true, removedFromSale: true, endingAnnouncement: "Farewell" }, "VERIFIED"],
    [{ keyOwnsApp: true, removedFromSale: false, endingAnnouncement: "" }, "NEEDS_REVIEW"],
    [{ keyOwnsApp: false, removedFromSale: true, endingAnnouncement: "Farewell" }, "NEEDS_REVIEW"],
    [{ keyOwnsApp: false, removedFromSale: false, endingAnnouncement: "" }, "NEEDS_REVIEW"],
  ] as const)("%o -> %s", (facts, state) => {
    const outcome = decideVerification(facts);
    expect(outcome.state).toBe(state);
    expect(outcome.explanation).not.toBe("");
  });

  it.each([
    ["NEEDS_REVIEW", true],
    ["DECLINED", true],
    ["VERIFYING", false],
    ["IN_REVIEW", false],
    ["VERIFIED", false],
    ["REVOKED", false],
  ] as const)("retry from %s: %s", (state, retryable) => {
    expect(canRetryVerification(state)).toBe(retryable);
  });
});
