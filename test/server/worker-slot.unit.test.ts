import { describe, expect, it } from "vitest";
import { workerSlotOf } from "../../src/server/worker-slot.js";

describe("workerSlotOf", () => {
  it("gives one address the same worker every time, within range", () => {
    for (const workers of [1, 2, 3, 8]) {
      for (let i = 0; i < 50; i++) {
        const slot = workerSlotOf(`10.0.${i}.7`, workers);
        expect(slot).toBeGreaterThanOrEqual(0);
        expect(slot).toBeLessThan(workers);
        expect(workerSlotOf(`10.0.${i}.7`, workers)).toBe(slot);
      }
    }
  });

  it("gives every address of an IPv6 /64 the worker of the group (its failure limit is counted there)", () => {
    const slot = workerSlotOf("2001:db8:1:2::1", 8);
    expect(workerSlotOf("2001:db8:1:2:ffff:ffff:ffff:ffff", 8)).toBe(slot);
    expect(workerSlotOf("2001:0db8:0001:0002:abcd::9", 8)).toBe(slot);
  });

  it("treats an IPv4 client on a dual-stack socket as its IPv4 address", () => {
    expect(workerSlotOf("::ffff:203.0.113.9", 4)).toBe(workerSlotOf("203.0.113.9", 4));
  });

  it("spreads many addresses over every worker, none with more than twice its share", () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const slot = workerSlotOf(`198.${i >> 8}.${i & 255}.${(i * 7) & 255}`, 4);
      counts[slot] = (counts[slot] ?? 0) + 1;
    }
    for (const count of counts) {
      expect(count).toBeGreaterThan(500);
      expect(count).toBeLessThan(2000);
    }
  });
});
