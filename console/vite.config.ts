// The studio console (issue 17): a static single-page build served by the service at /console/
// (src/server/console-route.ts). `npm run build` runs this into dist/console; nothing here is
// fetched from the network, so it builds offline.
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const client = (path: string) => fileURLToPath(new URL(`../clients/ts/src/${path}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/console/",
  plugins: [react()],
  resolve: {
    // The TypeScript client package's own sources (issue 9), compiled into the bundle: no copy
    // of its generated code, and no build of the package needed first.
    alias: [
      { find: /^@encore-campaigns\/client$/, replacement: client("index.ts") },
      { find: /^@encore-campaigns\/client\/web$/, replacement: client("web.ts") },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL("../dist/console", import.meta.url)),
    emptyOutDir: true,
    // Nothing inlined as data: URLs: every file is its own request under the CSP's 'self'.
    assetsInlineLimit: 0,
    sourcemap: false,
    // One file of about 530 kB (about 150 kB gzipped): React and the API's descriptors, loaded
    // once and cached as immutable; splitting it would save a studio nothing worth the requests.
    chunkSizeWarningLimit: 800,
    reportCompressedSize: false,
  },
  logLevel: "warn",
});
