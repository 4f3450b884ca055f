import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's root: where `npm start` runs. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

// The compiled entries `npm start`, `npm run admin`, `npm run steam-sim` and `npm run dev` run,
// built once per test run by test/support/built-service.ts.
export const SERVICE_ENTRY = join(ROOT, "dist/src/main.js");
export const ADMIN_CLI_ENTRY = join(ROOT, "dist/src/cli/main.js");
export const STEAM_SIM_ENTRY = join(ROOT, "dist/src/sim/steam/main.js");
export const DEV_SERVER_ENTRY = join(ROOT, "dist/src/dev/main.js");
/** The embedded database's first image, made by the build (scripts/embedded-database-image.mjs). */
export const EMBEDDED_DATABASE_IMAGE = join(ROOT, "dist/pglite/initdb.tar.gz");
