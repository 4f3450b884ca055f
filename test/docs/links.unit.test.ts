import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";

// Every relative link of the README and docs/ reaches a file that exists, and every #anchor a
// heading of the page it names, as GitHub renders them: pages moved or sections renamed show
// here, not to a reader.
const root = fileURLToPath(new URL("../../", import.meta.url));
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs")).flatMap((name) => (name.endsWith(".md") ? [`docs/${name}`] : [])),
];

/** The page's lines outside fenced code blocks, with inline code spans blanked. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split("\n").flatMap((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [line.replace(/`[^`]*`/g, "``")];
  });
}

/** The anchors GitHub gives a page's headings: their text, slugged, a repeat numbered. */
function anchors(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const text = readFileSync(join(root, path), "utf8");
  let fenced = false;
  const found = new Set<string>();
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const words = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    found.add(slugger.slug(words));
  }
  return found;
}

/** Every relative link target of a page: `[text](target)` and `![alt](target)`. */
function links(path: string): string[] {
  const targets = prose(readFileSync(join(root, path), "utf8")).flatMap((line) =>
    [...line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? ""),
  );
  return targets.filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe.each(pages)("%s", (page) => {
  it("links only to files that exist and headings that are there", () => {
    const broken: string[] = [];
    for (const target of links(page)) {
      const [file = "", anchor] = target.split("#");
      const resolved = file === "" ? join(root, page) : join(root, dirname(page), decodeURIComponent(file));
      if (!existsSync(resolved)) broken.push(`${target}: no ${relative(root, resolved)}`);
      else if (anchor !== undefined && resolved.endsWith(".md") && !anchors(relative(root, resolved)).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${relative(root, resolved)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the link check", () => {
  it("finds the anchors GitHub makes of headings with code, links and punctuation", () => {
    const found = anchors("docs/design.md");
    expect(found).toContain("2-layers-dependencies-point-inward-where-each-kind-of-code-goes-architecturemd");
    expect(anchors("docs/api.md")).toContain("the-games-four-calls-spec-2-4");
  });

  it("sees the README's links, and none inside code", () => {
    expect(links("README.md")).toContain("docs/configuration.md");
    expect(links("docs/api.md").some((target) => target.includes("127.0.0.1"))).toBe(false);
  });
});
