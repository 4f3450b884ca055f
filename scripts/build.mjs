// `npm run build`: compiles src/, gen/ and bench/ to dist/ with tsc, bundles the service's entry
// (dist/src/main.js) with our own modules and most packages into one bundle (main.js and the
// chunks it loads on demand, beside it in dist/src), copies what the service reads at run time
// (the SQL migrations, the OpenAPI document) beside it, builds the studio console (console/,
// Vite) into dist/console and makes the embedded database's first image (dist/pglite), so
// `node dist/src/main.js` needs nothing but dist/, node_modules and package.json.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { build as viteBuild } from "vite";

const root = new URL("../", import.meta.url);
const dist = new URL("dist/", root);
export const STAMP = new URL("dist/.built", root);

// Left out of the bundle: Prisma's client (it loads its query compiler from its own folder) and
// PGlite (its WebAssembly and data files) with their adapters and drivers; ioredis and the
// OpenTelemetry SDK, loaded only when REDIS_URL or tracing is set. OpenTelemetry's API is
// bundled: its copies share one process-wide registration (a global symbol), which is how it
// meets the SDK's own copy. pino is bundled too: only its transports (unused) need its files.
const EXTERNAL = [
  "@prisma/*",
  "@electric-sql/pglite",
  "pglite-prisma-adapter",
  "pg",
  "ioredis",
  "@opentelemetry/sdk-*",
  "@opentelemetry/exporter-*",
  "@opentelemetry/resources",
  "@opentelemetry/semantic-conventions",
];

/**
 * One line on stderr as each step starts, and the time it all took, so a first build (about half
 * a minute on two cores) is never silent.
 */
function progress() {
  const started = performance.now();
  let step = 0;
  return {
    step: (what) => process.stderr.write(`  build ${++step}/5: ${what}\n`),
    done: () => process.stderr.write(`  built dist/ in ${((performance.now() - started) / 1000).toFixed(0)} s\n`),
  };
}

export async function build() {
  const say = progress();
  // A full emit every time (no incremental build info): the bundle replaces tsc's main.js, so
  // tsc must write the entry afresh for esbuild to follow its imports again.
  say.step("compiling TypeScript (tsc)");
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) return result.status ?? 1;
  // Loading some 330 compiled modules one by one was about a third of the CPU a start spends
  // before it is ready (bench/start-to-ready.ts); one bundle cuts that. It holds our own code and
  // the packages that are plain JavaScript (protobuf, connect, zod, undici, prom-client...: some
  // 600 files more, docs/performance.md). Packages that find files beside themselves, keep
  // process-wide state another package shares, or are loaded only when configured stay in
  // node_modules, loaded as installed (EXTERNAL). Other entries (cli, dev, sim, bench) stay as
  // tsc wrote them. Relative paths from import.meta.url keep working: the bundle sits where the
  // entry was, and so do the chunks of what main.js imports on demand.
  // The chunks of an earlier build (tsc's own files are never named with a hash).
  for (const file of readdirSync(new URL("src/", dist))) {
    if (/-[A-Z0-9]{8}\.js(\.map)?$/.test(file)) rmSync(new URL(`src/${file}`, dist));
  }
  say.step("bundling the service (esbuild)");
  const bundled = await esbuild.build({
    entryPoints: [fileURLToPath(new URL("src/main.js", dist))],
    outdir: fileURLToPath(new URL("src/", dist)),
    splitting: true,
    chunkNames: "[name]-[hash]",
    metafile: true,
    allowOverwrite: true,
    bundle: true,
    external: EXTERNAL,
    platform: "node",
    format: "esm",
    target: "node20",
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: {
      js: 'import { createRequire as __bundleRequire } from "node:module";\nconst require = __bundleRequire(import.meta.url);',
    },
    sourcemap: true,
    logLevel: "warning",
    plugins: [queryCompilerFromFile],
  });
  for (const output of Object.keys(bundled.metafile.outputs)) {
    if (output.endsWith(".js")) asciiOnly(new URL(output, root));
  }
  say.step("copying migrations, the OpenAPI document and the store page");
  rmSync(new URL("prisma/", dist), { recursive: true, force: true });
  mkdirSync(new URL("prisma/", dist), { recursive: true });
  cpSync(new URL("prisma/migrations/", root), new URL("prisma/migrations/", dist), { recursive: true });
  await writeQueryCompilerWasm();
  // The OpenAPI document the service serves at /openapi.json (src/app.ts reads ../openapi/).
  cpSync(new URL("openapi/", root), new URL("openapi/", dist), { recursive: true });
  // The browser store page `npm run dev` serves (src/dev/store-page-server.ts), without its tests.
  rmSync(new URL("clients/", dist), { recursive: true, force: true });
  cpSync(new URL("clients/browser/", root), new URL("clients/browser/", dist), {
    recursive: true,
    filter: (source) => !source.includes("/clients/browser/tests"),
  });
  // The studio console's static build, served at /console/ (src/server/console-route.ts).
  say.step("building the studio console (Vite)");
  await viteBuild({ configFile: fileURLToPath(new URL("console/vite.config.ts", root)) });
  say.step("the embedded database's first image");
  if (embeddedDatabaseImage() !== 0) return 1;
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  say.done();
  return 0;
}

// Prisma's generated client imports its query compiler as a module whose one export is the
// WebAssembly in base64 (2.3 MB), and V8 keeps that module's source and the string for the life of
// the process: 4.6 MB of heap the service never reads again. The service's bundle compiles the
// binary from dist/prisma/ instead (docs/performance.md, "The query compiler from its binary, and
// order ids from a pool"); the other entries keep Prisma's loader. The build fails should Prisma's
// generated loader change shape.
const QUERY_COMPILER_LOADER =
  /const \{ wasm \} = await import\("@prisma\/client\/runtime\/(query_compiler_\w+_bg\.\w+)\.wasm-base64\.mjs"\);\s*return await decodeBase64AsWasm\(wasm\);/;
let queryCompilerModule;

const queryCompilerFromFile = {
  name: "query-compiler-from-file",
  setup(build) {
    build.onLoad({ filter: /[\\/]gen[\\/]prisma[\\/]internal[\\/]class\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const loader = QUERY_COMPILER_LOADER.exec(source);
      if (!loader) throw new Error(`${args.path}: Prisma's query compiler loader is not of the known shape`);
      queryCompilerModule = loader[1];
      // The bundle's chunks sit in dist/src/, the binary in dist/prisma/.
      const fromFile = `const { readFile } = await import("node:fs/promises");
        return new WebAssembly.Module(await readFile(new URL("../prisma/${queryCompilerModule}.wasm", import.meta.url)));`;
      return { contents: source.replace(QUERY_COMPILER_LOADER, fromFile), loader: "js" };
    });
  },
};

/** The query compiler the bundle loads, decoded from the installed Prisma's base64 module. */
async function writeQueryCompilerWasm() {
  if (!queryCompilerModule) throw new Error("the bundle did not load Prisma's generated client");
  const { wasm } = await import(`@prisma/client/runtime/${queryCompilerModule}.wasm-base64.mjs`);
  writeFileSync(new URL(`prisma/${queryCompilerModule}.wasm`, dist), Buffer.from(wasm, "base64"));
}

/**
 * The embedded database's first start loads dist/pglite/initdb.tar.gz, a freshly made database,
 * instead of running PGlite's initdb, which peaks at 730-890 MB of memory (docs/deploy.md).
 * Made again only for another PGlite version or a changed recipe (initdb takes some 5 s), in a
 * process of its own.
 */
function embeddedDatabaseImage() {
  const dir = new URL("pglite/", dist);
  const stamp = new URL("initdb.version", dir);
  const recipe = new URL("scripts/embedded-database-image.mjs", root);
  const { version } = JSON.parse(readFileSync(new URL("node_modules/@electric-sql/pglite/package.json", root), "utf8"));
  const current =
    existsSync(stamp) && readFileSync(stamp, "utf8") === version && statSync(stamp).mtimeMs >= statSync(recipe).mtimeMs;
  if (current) return 0;
  mkdirSync(dir, { recursive: true });
  const made = spawnSync(process.execPath, [fileURLToPath(recipe), fileURLToPath(new URL("initdb.tar.gz", dir))], {
    cwd: root,
    stdio: "inherit",
  });
  if (made.status !== 0) return made.status ?? 1;
  writeFileSync(stamp, version);
  return 0;
}

/**
 * esbuild escapes non-ASCII characters in the bundle's code but not in the comments it keeps, and
 * one such character makes V8 hold the whole 3.4 MB source as two-byte text for the life of the
 * process. Escaped there too (only comments still have any), it is held as one-byte text: 3.3 MB
 * less heap (docs/performance.md). A comment's `\u2019` reads as well as its quote mark.
 */
function asciiOnly(file) {
  const text = readFileSync(file, "utf8");
  writeFileSync(
    file,
    text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await build());
