import { describe, expect, it } from "vitest";
import { resolveUpdateMask } from "../../src/domain/update-mask.js";

describe("resolveUpdateMask (AIP-134)", () => {
  const updatable = ["display_name", "funding_visibility"] as const;
  it("uses the fields present without a mask", () => {
    expect(resolveUpdateMask({ paths: [], updatable, present: ["display_name"] })).toEqual({
      ok: true,
      fields: new Set(["display_name"]),
    });
  });
  it("accepts JSON spellings, * and ignored paths; refuses unknown ones", () => {
    expect(
      resolveUpdateMask({ paths: ["fundingVisibility", "etag"], updatable, present: [], ignored: ["etag"] }),
    ).toEqual({
      ok: true,
      fields: new Set(["funding_visibility"]),
    });
    expect(resolveUpdateMask({ paths: ["*"], updatable, present: [] })).toEqual({
      ok: true,
      fields: new Set(updatable),
    });
    expect(resolveUpdateMask({ paths: ["game"], updatable, present: [] })).toEqual({ ok: false, path: "game" });
  });
});
