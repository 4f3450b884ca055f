import { existsSync, readFileSync } from "node:fs";

/**
 * The node options the service runs with: `npm start`'s, which the image's CMD repeats
 * (scripts/deploy-lint.mjs holds them equal). Tests and the bench start the built service with
 * them, so what they run is the heap the service has when deployed, on any machine (V8 sizes its
 * young generation by the machine's memory unless told: docs/performance.md).
 */
export function serviceNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJson(), "utf8")) as { scripts: { start: string } };
  const options = /^exec node (.*?) ?--import \S+ dist\/src\/main\.js$/.exec(scripts.start)?.[1];
  if (options === undefined) throw new Error(`npm start's command is not of the known shape: ${scripts.start}`);
  return options.split(" ").filter(Boolean);
}

/** The project's package.json, above this module built (dist/test/support) or not. */
function packageJson(): URL {
  for (let dir = new URL("./", import.meta.url); dir.pathname !== "/"; dir = new URL("../", dir)) {
    const file = new URL("package.json", dir);
    if (existsSync(file)) return file;
  }
  throw new Error("no package.json above this module");
}
