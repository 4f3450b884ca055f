import { describe, expect, it } from "vitest";
import { checkSignInReturn, nonceIsFresh, openIdFields } from "../../src/domain/openid-assertion.js";

const NOW = new Date("2026-11-29T12:00:00Z");
const RETURN_TO = "https://fund.example.com/fund/ck_a/sign-in/return?state=s1";

describe("a sign-in's return", () => {
  const fields = (extra: Record<string, string> = {}) => ({
    "openid.mode": "id_res",
    "openid.return_to": RETURN_TO,
    "openid.response_nonce": "2026-11-29T11:58:00Zabc",
    ...extra,
  });

  it("is taken for exactly the return_to sent, with a fresh nonce", () => {
    expect(checkSignInReturn(fields(), { returnTo: RETURN_TO, now: NOW })).toEqual({
      ok: true,
      nonce: "2026-11-29T11:58:00Zabc",
    });
    for (const returnTo of [`${RETURN_TO}x`, RETURN_TO.replace("s1", "s2"), RETURN_TO.replace("https", "http")]) {
      expect(checkSignInReturn(fields({ "openid.return_to": returnTo }), { returnTo: RETURN_TO, now: NOW })).toEqual({
        ok: false,
        problem: "wrong-return-to",
      });
    }
    expect(checkSignInReturn(fields({ "openid.mode": "cancel" }), { returnTo: RETURN_TO, now: NOW })).toEqual({
      ok: false,
      problem: "cancelled",
    });
    expect(
      checkSignInReturn(fields({ "openid.response_nonce": "2026-11-29T11:50:00Zabc" }), {
        returnTo: RETURN_TO,
        now: NOW,
      }),
    ).toEqual({ ok: false, problem: "stale-nonce" });
  });

  it("takes a nonce within five minutes, up to one minute ahead of our clock", () => {
    expect(nonceIsFresh("2026-11-29T11:55:00Z0", NOW)).toBe(true);
    expect(nonceIsFresh("2026-11-29T11:54:59Z0", NOW)).toBe(false);
    expect(nonceIsFresh("2026-11-29T12:01:00Z0", NOW)).toBe(true);
    expect(nonceIsFresh("2026-11-29T12:01:01Z0", NOW)).toBe(false);
    for (const nonce of ["", "2026-11-29T12:00:00Z", "2026-11-29 12:00:00Zx", "2026-13-45T12:00:00Zx", "garbage"]) {
      expect(nonceIsFresh(nonce, NOW), nonce).toBe(false);
    }
  });

  it("reads only the openid.* fields, and none when one is repeated", () => {
    expect(openIdFields(new URLSearchParams("state=s&openid.mode=id_res&openid.sig=x"))).toEqual({
      "openid.mode": "id_res",
      "openid.sig": "x",
    });
    expect(openIdFields(new URLSearchParams("openid.return_to=a&openid.return_to=b"))).toBeUndefined();
  });
});
