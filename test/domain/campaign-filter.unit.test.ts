import { describe, expect, it } from "vitest";
import { parseCampaignFilter } from "../../src/domain/campaign-filter.js";

describe("parseCampaignFilter", () => {
  it.each([
    ["", undefined],
    ['state = "NEEDS_REVIEW"', "NEEDS_REVIEW"],
    ['  state="STATE_VERIFYING" ', "VERIFYING"],
    ['state = "REVOKED"', "REVOKED"],
  ])("accepts %j", (filter, state) => {
    expect(parseCampaignFilter(filter)).toEqual({ ok: true, state });
  });

  it.each([
    'state = "VERIFYING"',
    "state = VERIFIED",
    'State = "VERIFIED"',
    'state = "verified"',
    'state:"VERIFIED"',
    'name = "x"',
  ])("refuses %j", (filter) => {
    expect(parseCampaignFilter(filter).ok).toBe(false);
  });
});
