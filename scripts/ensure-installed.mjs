// `npm start` and `npm test` work straight after cloning: when the dependencies were never
// installed, install them exactly as locked (generated code is committed, so nothing else is
// needed).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync(new URL("../node_modules/.package-lock.json", import.meta.url))) {
  process.stderr.write("node_modules is missing: running npm ci first\n");
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
