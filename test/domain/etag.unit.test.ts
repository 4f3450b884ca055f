import { describe, expect, it } from "vitest";
import { etagOf, versionOfEtag } from "../../src/domain/etag.js";

describe("etags", () => {
  it("round-trips versions and names none for anything else", () => {
    expect(versionOfEtag(etagOf(7))).toBe(7);
    for (const etag of ["7", '"0"', '"-1"', 'W/"7"', '"07"', '"99999999999"'])
      expect(versionOfEtag(etag)).toBeUndefined();
  });
});
