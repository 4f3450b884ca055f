import v8 from "node:v8";

// How much WebAssembly a function runs (V8 counts bytes of its code executed) before V8
// recompiles it with TurboFan; V8's own default is 1,800,000.
//
// Prisma 7's query compiler is WebAssembly: it runs when a query shape is first seen (the plans
// are cached after), so it is busy at start-up and then rarely. At V8's budget some 45 of its
// functions reached TurboFan during start-up, and the process stayed about 50 MB larger for good
// (184 against 134 MB idle on PostgreSQL, 310 against 226 MB on PGlite): docs/performance.md,
// Memory. The start-up stops tiering up between 1e7 and 3e7; 1e8 leaves room for the query
// shapes seen later. What runs all the time still gets TurboFan's code: undici's HTTP parser
// (llhttp) after a few thousand responses, PGlite's executor under load.
const TIERING_BUDGET = 100_000_000;

/**
 * Raises V8's WebAssembly tier-up budget for the modules compiled after this call. It has to run
 * before Prisma's client and PGlite compile theirs: V8 reads the budget when it compiles a
 * module, and a flag set at run time is the only way every start (npm start, the CLI, workers,
 * tests) gets it.
 */
export function deferWasmTierUp(): void {
  v8.setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
}
