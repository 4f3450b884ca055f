import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_NAMES } from "../../src/telemetry/metrics.js";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("docs/deploy.md", () => {
  it("names every environment variable the service reads", () => {
    const doc = read("docs/deploy.md");
    const variables = [...read("src/config.ts").matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(10);
    for (const name of variables) expect(doc).toContain(`\`${name}\``);
  });

  it("describes every encore_ series the service exposes", () => {
    const doc = read("docs/deploy.md");
    const series = [...read("src/telemetry/metrics.ts").matchAll(/"(encore_[a-z_]+)"/g)].map((match) => match[1]);
    expect(series.length).toBeGreaterThan(10);
    for (const name of series) expect(doc).toContain(`\`${name}\``);
  });

  it("lists every limit a rate-limit refusal is counted under", () => {
    const row = read("docs/deploy.md")
      .split("\n")
      .find((line) => line.startsWith("| `encore_rate_limit_refusals_total` |"));
    for (const limit of RATE_LIMIT_NAMES) expect(row).toContain(`\`${limit}\``);
  });
});
