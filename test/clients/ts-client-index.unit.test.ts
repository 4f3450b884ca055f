import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The package's root re-exports every generated Encore file: a proto file added to proto/encore
// must reach users without a hand edit being forgotten.
const src = new URL("../../clients/ts/src/", import.meta.url);
const generated = readdirSync(new URL("gen/encore", src), { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith("_pb.ts"))
  .map((path) => `./gen/encore/${path.replace(/\.ts$/, ".js")}`)
  .sort();

describe("@encore-campaigns/client index", () => {
  it("re-exports every generated Encore file", () => {
    const index = readFileSync(new URL("index.ts", src), "utf8");
    const reexported = [...index.matchAll(/^export \* from "(\.\/gen\/encore\/[^"]+)";$/gm)].map((match) => match[1]);
    expect(generated.length).toBeGreaterThan(10);
    expect(reexported.sort()).toEqual(generated);
  });
});
