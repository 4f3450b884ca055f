import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The client examples the READMEs show are the files the client tests run (go-client.test.ts,
// ts-client-package.test.ts): each `<!-- example: path -->` is followed by that file, verbatim.
const root = new URL("../../", import.meta.url);

function examplesShown(readmePath: string): { shown: Map<string, string>; codeBlocks: number } {
  const readme = readFileSync(new URL(readmePath, root), "utf8");
  const shown = new Map(
    [...readme.matchAll(/<!-- example: (\S+) -->\n```\w+\n([\s\S]*?)```\n/g)].map((match) => [
      match[1] ?? "",
      match[2] ?? "",
    ]),
  );
  return { shown, codeBlocks: readme.match(/^```(js|ts|go)$/gm)?.length ?? 0 };
}

describe.each([
  ["README.md", ["clients/go/examples/funding/main.go", "clients/ts/examples/funding.mjs"]],
  ["clients/ts/README.md", ["clients/ts/examples/quick-start.mjs"]],
])("%s", (readmePath, examples) => {
  const { shown, codeBlocks } = examplesShown(readmePath);

  it("shows no code but the examples the tests run", () => {
    expect([...shown.keys()].sort()).toEqual([...examples].sort());
    expect(codeBlocks).toBe(examples.length);
  });

  it.each(examples)("shows %s as it is", (path) => {
    expect(shown.get(path)).toBe(readFileSync(new URL(path, root), "utf8"));
  });
});
