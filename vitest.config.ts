import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

// Two projects (README "Tests"): `unit` is every `*.unit.test.ts`, which may use no database,
// no server and no process of its own (test/support/unit-guard.ts refuses them); `integration`
// is every other `*.test.ts`. `npm test` runs both, `npm run test:unit` the first alone.
const UNIT = "test/**/*.unit.test.ts";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [UNIT],
          setupFiles: ["test/support/unit-guard.ts"],
          // Pure code only: the files share worker threads and their loaded modules (a unit test
          // restores what it changes, e.g. vi.useRealTimers()), which takes the run to seconds.
          pool: "threads",
          isolate: false,
          // First, then the integration project (each group has its own worker count).
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, UNIT],
          // One migrated template database for the run, each file's database a copy of it; one
          // build of the service for the processes tests start (test/support/built-service.ts).
          globalSetup: ["test/support/database-template.ts", "test/support/built-service.ts"],
          pool: "forks",
          // A worker keeps the modules it loaded from one file to the next: loading the service's
          // modules again for each of some 150 files was about a third of the run on PGlite
          // (docs/testing.md). Nothing here mocks a module; each file builds its own service,
          // database and registries, and restores what process-wide state it changes.
          isolate: false,
          // Integration files mostly wait (on the database, the simulator, timeouts, child
          // processes): one worker used about 0.7 of a core on a 2-core machine, where vitest's
          // default (cores - 1) runs them one at a time. Two at least keep both cores busy.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
