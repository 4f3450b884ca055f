import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { helperJob, ownerOf, sourceMapsBeside, summarise } from "../../bench/perf-summary.js";

describe("perf-summary", () => {
  it("names a JavaScript frame's package, our module or node's own module", () => {
    expect(ownerOf("JS:*parse /work/main/node_modules/pg-protocol/dist/parser.js:26:10 (/tmp/perf-1.map)")).toBe(
      "pg-protocol",
    );
    expect(
      ownerOf("JS:*fromJson /app/node_modules/@bufbuild/protobuf/dist/esm/from-json.js:1:1 (/tmp/perf-1.map)"),
    ).toBe("@bufbuild/protobuf");
    expect(ownerOf("JS:*queryRows file:///work/main/dist/src/store/direct-queries.js:24:32 (/tmp/perf-1.map)")).toBe(
      "src/store/direct-queries",
    );
    expect(ownerOf("JS:*clearBuffer node:internal/streams/writable:744:21 (/tmp/perf-1.map)")).toBe(
      "node:internal/streams/writable",
    );
  });

  it("names the module a frame of the bundle came from, by the bundle's source map", () => {
    const dir = mkdtempSync(join(tmpdir(), "encore-perf-summary-"));
    try {
      const bundle = join(dir, "serve-ABCDEFGH.js");
      // Generated line 1 from src/transcode/respond.ts, line 2 from a bundled package.
      const sources = ["../../src/transcode/respond.ts", "../../node_modules/@connectrpc/connect/dist/esm/x.js"];
      writeFileSync(`${bundle}.map`, JSON.stringify({ version: 3, sources, names: [], mappings: "AAAA;ACAA" }));
      const sourceOf = sourceMapsBeside();
      expect(ownerOf(`JS:*sendJson file://${bundle}:1:1 (/tmp/perf-1.map)`, sourceOf)).toBe("src/transcode/respond");
      expect(ownerOf(`JS:*unary file://${bundle}:2:1 (/tmp/perf-1.map)`, sourceOf)).toBe("@connectrpc/connect");
      // A built file without a map keeps its own name.
      const other = join(dir, "dist/src/chunk-ZYXWVUTS.js");
      expect(ownerOf(`JS:*run file://${other}:1:1 (/tmp/perf-1.map)`, sourceOf)).toBe("src/chunk-ZYXWVUTS");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("tells V8's compiler threads from its collector's", () => {
    expect(helperJob(["v8::internal::compiler::GraphReducer::ReduceTop (/usr/bin/node)"])).toBe("V8 compiler threads");
    expect(helperJob(["v8::internal::Scavenger::ScavengeObject (/usr/bin/node)"])).toBe("V8 collector threads");
    expect(helperJob(["start_thread (/usr/lib/libc.so.6)"])).toBe("other threads");
  });

  it("gives each main-thread sample to its nearest JavaScript frame, kernel or user by its leaf", () => {
    const shares = summarise([
      {
        pid: 7,
        tid: 7,
        frames: [
          "_raw_spin_unlock_irqrestore ([kernel.kallsyms])",
          "__GI___writev (/usr/lib/libc.so.6)",
          "JS:*clearBuffer node:internal/streams/writable:744:21 (/tmp/perf-7.map)",
          "JS:*query /work/main/node_modules/pg/lib/client.js:667:7 (/tmp/perf-7.map)",
        ],
      },
      {
        pid: 7,
        tid: 7,
        frames: ["Builtins_LoadIC (/usr/bin/node)", "JS:*query /x/node_modules/pg/lib/client.js:1:1 (m)"],
      },
      {
        pid: 7,
        tid: 7,
        frames: ["Builtins_LoadIC (/usr/bin/node)", "JS:*query /x/node_modules/pg/lib/client.js:1:1 (m)"],
      },
      { pid: 7, tid: 9, frames: ["v8::internal::compiler::Scheduler::ScheduleLate (/usr/bin/node)"] },
    ]);
    expect(shares).toEqual([
      ["pg (user)", 0.5],
      ["node:internal/streams/writable (kernel)", 0.25],
      ["V8 compiler threads", 0.25],
    ]);
  });
});
