import { describe, expect, it } from "vitest";
import { benchSettings } from "../../bench/settings.js";

describe("npm run bench's settings", () => {
  it("default as docs/development.md gives them", () => {
    expect(benchSettings({})).toEqual({
      BENCH_CONNECTIONS: 32,
      BENCH_DURATION_S: 8,
      BENCH_PLAYERS: 32,
      BENCH_CAMPAIGNS: 8,
      BENCH_PURCHASE_WARMUP: 4000,
      BENCH_ROUNDS: 1,
      BENCH_SOAK_REQUESTS: 1_000_000,
      BENCH_SOAK_S: 120,
    });
  });

  it("take whole numbers from the environment; an empty variable is unset", () => {
    const settings = benchSettings({
      BENCH_DURATION_S: "12",
      BENCH_ROUNDS: "",
      BENCH_MEMORY_LIMIT_MB: "512",
    });
    expect(settings.BENCH_DURATION_S).toBe(12);
    expect(settings.BENCH_ROUNDS).toBe(1);
    expect(settings.BENCH_MEMORY_LIMIT_MB).toBe(512);
  });

  it("refuse a value that is not a count, naming the variable", () => {
    expect(() => benchSettings({ BENCH_DURATION_S: "8s" })).toThrow(/^npm run bench: BENCH_DURATION_S: /);
    expect(() => benchSettings({ BENCH_PURCHASE_WARMUP: "-1" })).toThrow(/BENCH_PURCHASE_WARMUP: .*>=0/);
    expect(() => benchSettings({ BENCH_ROUNDS: "1.5" })).toThrow(/BENCH_ROUNDS/);
    expect(() => benchSettings({ BENCH_PLAYERS: "0" })).toThrow(/BENCH_PLAYERS/);
  });
});
