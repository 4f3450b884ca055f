import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

// The engines field and the dependencies agree, so `npm ci` prints no EBADENGINE
// warning on any Node the project says it runs on; and the image installs no development tool.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const ours: string = JSON.parse(read("package.json")).engines.node;

interface LockedPackage {
  version: string;
  engines?: { node?: string };
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
}
const locked = Object.entries<LockedPackage>(JSON.parse(read("package-lock.json")).packages).filter(
  ([path]) => path !== "",
);

describe("dependencies", () => {
  it("each accepts every Node version the engines field allows", () => {
    const refusing = locked
      .filter(([, entry]) => entry.engines?.node && !semver.subset(ours, entry.engines.node))
      .map(
        ([path, entry]) => `${path.replace(/^.*node_modules\//, "")}@${entry.version} (node ${entry.engines?.node})`,
      );
    expect(refusing).toEqual([]);
  });

  it("installed for production as the Dockerfile does, hold no prisma CLI", () => {
    const install = /^RUN (npm ci .*)$/m.exec(read("Dockerfile").split("AS deps")[1] ?? "")?.[1] ?? "";
    const omit = new Set([...install.matchAll(/--omit=(\w+)/g)].map((match) => match[1]));
    // npm's own rule for what --omit leaves out (a devOptional package needs both).
    const omitted = (entry: LockedPackage) =>
      (entry.dev && omit.has("dev")) ||
      (entry.optional && omit.has("optional")) ||
      (entry.devOptional && omit.has("dev") && omit.has("optional"));
    const kept = new Set(locked.filter(([, entry]) => !omitted(entry)).map(([path]) => path));
    expect(kept.has("node_modules/@prisma/client")).toBe(true);
    expect(kept.has("node_modules/prisma")).toBe(false);
    expect(kept.has("node_modules/@prisma/studio-core")).toBe(false);
  });
});
