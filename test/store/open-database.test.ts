import v8 from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/store/open-database.js";
import { tiersUpAfter, V8_DEFAULT_TIERING_BUDGET } from "../support/wasm-tier.js";

describe("opening the embedded database (PGlite)", () => {
  let database: Database;
  beforeAll(async () => {
    // As at a process's start, before anything raised it.
    v8.setFlagsFromString(`--wasm-tiering-budget=${V8_DEFAULT_TIERING_BUDGET}`);
    database = await openDatabase({ kind: "pglite" });
  });
  afterAll(() => database.close());

  it("runs with 32 MB of shared buffers, not initdb's 128 MB that every start cleared (docs/performance.md)", async () => {
    const sql = await database.openSqlRunner();
    expect(await sql.query("SHOW shared_buffers")).toEqual([{ shared_buffers: "32MB" }]);
  });

  it("raises V8's WebAssembly tier-up budget for what is compiled after it (src/store/wasm-tier-up.ts)", async () => {
    expect(await tiersUpAfter(30)).toBe(false);
  });
});
