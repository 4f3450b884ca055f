import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generatedTables, replaceBetween } from "../../scripts/doc-tables.js";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe.each(generatedTables)("$file", ({ file, name, render }) => {
  it(`carries the ${name} table exactly as the code has it`, () => {
    const text = read(file);
    expect(text).toBe(replaceBetween(text, name, render()));
  });
});

describe("docs/configuration.md", () => {
  it("names every environment variable the service reads", () => {
    const doc = read("docs/configuration.md");
    const variables = [...read("src/config.ts").matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(10);
    for (const name of variables) expect(doc).toContain(`\`${name}\``);
  });
});
