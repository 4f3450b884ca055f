import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_ID_LENGTH, readRequestId } from "../../src/domain/request-id.js";

describe("readRequestId (spec 8: at most 128 characters)", () => {
  it.each([
    ["empty: no request id", "", undefined],
    ["128 ASCII characters", "r".repeat(128), "r".repeat(128)],
    ["128 emoji (256 UTF-16 units): characters are code points", "\u{1F3AE}".repeat(128), "\u{1F3AE}".repeat(128)],
  ])("accepts %s", (_, text, expected) => {
    expect(readRequestId(text)).toBe(expected);
  });

  it.each([
    ["129 ASCII characters", "r".repeat(129)],
    ["129 emoji", "\u{1F3AE}".repeat(129)],
  ])("refuses %s with INVALID_ARGUMENT", (_, text) => {
    expect(MAX_REQUEST_ID_LENGTH).toBe(128);
    try {
      readRequestId(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConnectError);
      expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    }
  });
});
