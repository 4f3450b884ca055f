import { describe, expect, it } from "vitest";
import { newOrderId, orderIdFromBytes } from "../../src/domain/order-id.js";

describe("order ids", () => {
  it.each([
    [[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 9_223_372_036_854_775_807n],
    [[0x80, 0, 0, 0, 0, 0, 0, 0], 1n],
    [[0, 0, 0, 0, 0, 0, 0, 0], 1n],
    [[0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0], 0x123456789abcdef0n],
  ])("reads %j as %s (top bit cleared, never 0)", (bytes, expected) => {
    expect(orderIdFromBytes(Uint8Array.from(bytes))).toBe(expected);
  });

  it("makes unsigned 63-bit ids that do not repeat", () => {
    const ids = new Set<bigint>();
    for (let i = 0; i < 10_000; i++) {
      const id = newOrderId();
      expect(id > 0n && id < 2n ** 63n).toBe(true);
      ids.add(id);
    }
    expect(ids.size).toBe(10_000);
  });

  it("refuses anything but 8 bytes", () => {
    expect(() => orderIdFromBytes(new Uint8Array(7))).toThrow(RangeError);
  });
});
