import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The client code the pages show is code the client tests run (go-client.test.ts,
// ts-client-package.test.ts): `<!-- example: path -->` before a block shows that whole file,
// `<!-- excerpt: path -->` a run of its lines, verbatim. A page shows no other js, ts or go.
const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

interface Shown {
  kind: "example" | "excerpt";
  path: string;
  code: string;
}

function codeShown(page: string): { shown: Shown[]; codeBlocks: number } {
  const text = read(page);
  const shown = [...text.matchAll(/<!-- (example|excerpt): (\S+) -->\n```\w+\n([\s\S]*?)```\n/g)].map((match) => ({
    kind: match[1] as Shown["kind"],
    path: match[2] ?? "",
    code: match[3] ?? "",
  }));
  return { shown, codeBlocks: text.match(/^```(js|ts|go)$/gm)?.length ?? 0 };
}

const GO_EXAMPLE = "clients/go/examples/funding/main.go";
const TS_EXAMPLE = "clients/ts/examples/funding.mjs";

describe.each([
  ["README.md", "excerpt", [GO_EXAMPLE, TS_EXAMPLE]],
  ["docs/clients.md", "example", [GO_EXAMPLE, TS_EXAMPLE]],
  ["clients/ts/README.md", "example", ["clients/ts/examples/quick-start.mjs"]],
] as const)("%s", (page, kind, paths) => {
  const { shown, codeBlocks } = codeShown(page);

  it(`shows no code but ${kind}s of the files the tests run`, () => {
    expect(shown.map((block) => `${block.kind} ${block.path}`).sort()).toEqual(
      paths.map((path) => `${kind} ${path}`).sort(),
    );
    expect(codeBlocks).toBe(paths.length);
  });

  it.each(paths)(`shows %s as it is`, (path) => {
    const code = shown.find((block) => block.path === path)?.code ?? "";
    const file = read(path);
    if (kind === "example") expect(code).toBe(file);
    else {
      expect(code.split("\n").length).toBeGreaterThan(3);
      expect(`\n${file}`).toContain(`\n${code}`); // whole lines
    }
  });
});
