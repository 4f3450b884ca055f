import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderReadme } from "../../scripts/readme-tables.js";

describe("README", () => {
  it("carries the error and role tables exactly as the code has them", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(readme).toBe(renderReadme(readme));
  });
});
