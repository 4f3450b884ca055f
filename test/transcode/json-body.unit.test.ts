import { describe, expect, it } from "vitest";
import { isJsonContentType, parseJsonBody } from "../../src/transcode/json-body.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("parseJsonBody", () => {
  it.each([
    ['{"orderId":"9007199254740993"}', { orderId: "9007199254740993" }],
    ['{"orderId":9007199254740991}', { orderId: 9007199254740991 }],
    ['{"price":4.99}', { price: 4.99 }],
    ["", undefined],
  ])("reads %s", (text, value) => {
    expect(parseJsonBody(bytes(text))).toEqual(value);
  });

  it.each([['{"orderId":9007199254740993}'], ['{"nested":[{"orderId":18446744073709551615}]}'], ["{"], ["[1,"]])(
    "refuses %s with code 3",
    (text) => {
      expect(() => parseJsonBody(bytes(text))).toThrow(expect.objectContaining({ code: 3 }));
    },
  );

  it("walks bodies nested deeper than the call stack", () => {
    const deep = `${"[".repeat(30_000)}1${"]".repeat(30_000)}`;
    expect(() => parseJsonBody(bytes(deep))).not.toThrow();
  });

  it("knows JSON content types with parameters", () => {
    expect(isJsonContentType("application/json; charset=utf-8")).toBe(true);
    expect(isJsonContentType("Application/JSON")).toBe(true);
    expect(isJsonContentType("text/plain")).toBe(false);
  });
});
