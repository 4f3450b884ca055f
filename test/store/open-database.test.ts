import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/open-database.js";

describe("the embedded database (PGlite)", () => {
  it("runs with 32 MB of shared buffers, not initdb's 128 MB that every start cleared (docs/performance.md)", async () => {
    const database = await openDatabase({ kind: "pglite" });
    try {
      const sql = await database.openSqlRunner();
      expect(await sql.query("SHOW shared_buffers")).toEqual([{ shared_buffers: "32MB" }]);
    } finally {
      await database.close();
    }
  });
});
