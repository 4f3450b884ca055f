import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/store/open-database.js";
import { EMBEDDED_DATABASE_IMAGE } from "../support/built-entries.js";
import { freshDataDir } from "../support/service-process.js";

describe("opening the embedded database (PGlite)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: "pglite" });
  });
  afterAll(() => database.close());

  it("runs with 32 MB of shared buffers, not initdb's 128 MB that every start cleared (docs/performance.md)", async () => {
    const sql = await database.openSqlRunner();
    expect(await sql.query("SHOW shared_buffers")).toEqual([{ shared_buffers: "32MB" }]);
  });
});

describe("the embedded database's first start from an image (scripts/build.mjs makes the service's)", () => {
  it("makes a DATA_DIR that holds no database from the image, and never loads it over one", async () => {
    // The build's image with a table of its own, so the test can tell it was loaded.
    const lite = new PGlite({ loadDataDir: new Blob([readFileSync(EMBEDDED_DATABASE_IMAGE)]) });
    await lite.exec("CREATE TABLE from_image (n int)");
    const image = join(freshDataDir(), "image.tar.gz");
    writeFileSync(image, Buffer.from(await (await lite.dumpDataDir("gzip")).arrayBuffer()));
    await lite.close();

    const target = { kind: "pglite" as const, dataDir: freshDataDir(), firstImage: image };
    const first = await openDatabase(target);
    await (await first.openSqlRunner()).exec("INSERT INTO from_image VALUES (1)");
    await first.close();
    const again = await openDatabase(target);
    expect(await (await again.openSqlRunner()).query("SELECT n FROM from_image")).toEqual([{ n: 1 }]);
    await again.close();
  }, 60_000);
});
