// Writes the image of a freshly made embedded database (PGlite's initdb, nothing else) to the
// file named by its argument, as PGlite's dumpDataDir makes it. Run by scripts/build.mjs in a
// process of its own: initdb takes PGlite to 730-890 MB, which the service's first start then
// never needs (it loads this image: src/store/open-database.ts, docs/deploy.md).
import { writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";

const [file] = process.argv.slice(2);
if (!file) throw new Error("usage: node scripts/embedded-database-image.mjs <file.tar.gz>");
const db = new PGlite();
await db.waitReady;
const image = await db.dumpDataDir("gzip");
writeFileSync(file, Buffer.from(await image.arrayBuffer()));
await db.close();
