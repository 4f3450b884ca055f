import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { vi } from "vitest";

// The unit project's setup file (vitest.config.ts): a `*.unit.test.ts` file runs with no
// database, no server and no process of its own, so `npm run test:unit` stays a matter of
// seconds. Whatever would need one fails here, naming the rule, instead of slowly passing.

const refuse =
  (what: string) =>
  (..._args: unknown[]): never => {
    throw new Error(`a unit test may not ${what}: name the file *.test.ts to make it an integration test`);
  };

for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const) {
  Object.assign(childProcess, { [name]: refuse("start a process") });
}
net.Server.prototype.listen = refuse("listen on a port");
net.Socket.prototype.connect = refuse("open a connection (database, server or network)");
// Named ESM imports of node:child_process see the replacements too.
syncBuiltinESMExports();

// The embedded database runs in-process, so it is refused by name.
vi.mock("@electric-sql/pglite", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@electric-sql/pglite")>()),
  PGlite: class {
    constructor() {
      refuse("open a database")();
    }
  },
}));
