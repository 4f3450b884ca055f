import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderReadme } from "../../scripts/readme-tables.js";

describe("README", () => {
  it("carries the error and role tables exactly as the code has them", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(readme).toBe(renderReadme(readme));
  });
});

describe("README configuration table", () => {
  it("names every environment variable the service reads", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const config = readFileSync(new URL("../../src/config.ts", import.meta.url), "utf8");
    const variables = [...config.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(10);
    for (const name of variables) expect(readme).toContain(`\`${name}\``);
  });
});
