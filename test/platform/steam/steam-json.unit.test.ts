import { describe, expect, it } from "vitest";
import { parseSteamJson } from "../../../src/platform/steam/steam-http.js";

describe("parseSteamJson keeps uint64 fields exact", () => {
  it.each([
    ['{"orderid":9007199254740993}', { orderid: "9007199254740993" }],
    ['{"orderid": 9007199254740993 , "x": 1}', { orderid: "9007199254740993", x: 1 }],
    ['{"transid":18446744073709551615}', { transid: "18446744073709551615" }],
    [
      '{"steamid":76561198000000001,"ownersteamid":76561198000000003}',
      { steamid: "76561198000000001", ownersteamid: "76561198000000003" },
    ],
    ['{"items":[{"gid":4732747437206292836}]}', { items: [{ gid: "4732747437206292836" }] }],
    // already strings, other numbers and look-alikes inside strings are left alone
    ['{"orderid":"9007199254740993","amount":499}', { orderid: "9007199254740993", amount: 499 }],
    ['{"contents":"\\"orderid\\": 5,"}', { contents: '"orderid": 5,' }],
    ['{"appid":480}', { appid: 480 }],
  ])("%s", (text, expected) => {
    expect(parseSteamJson(text)).toEqual(expected);
  });

  it("throws on non-JSON like JSON.parse", () => {
    expect(() => parseSteamJson("<html>busy</html>")).toThrow(SyntaxError);
  });
});
