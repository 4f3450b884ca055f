import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { createInterface } from "node:readline";

// `node dist/bench/perf-summary.js <file.perf.data>`: where a BENCH_PERF recording's CPU went,
// as shares of its samples. perf's own report names the leaf function, which for a JavaScript
// service is mostly V8's inline caches and builtins; this names the code that ran them: each
// sample on a JavaScript thread goes to its nearest JavaScript frame's package (node_modules),
// our module (dist/src/...) or node's own module, split by whether the leaf was in the kernel;
// samples on V8's other threads go to the compiler, the collector or the rest. Reads the
// /tmp/perf-<pid>.map files the recorded processes left (perf script does).

interface Sample {
  pid: number;
  tid: number;
  frames: string[];
}

/**
 * Where a position in a built file came from, by its source map: the original file's path as the
 * map names it (relative to the built file), or undefined without a map or an entry there.
 */
export type SourceOf = (file: string, line: number, column: number) => string | undefined;

/**
 * The code a JavaScript frame's name belongs to: a package, one of our modules, or node's. A
 * frame in the service's bundle (dist/src/main.js and its chunks: scripts/build.mjs) holds our
 * modules and most packages at once, so `sourceOf` (the bundle's source maps) names the module
 * its function came from.
 */
export function ownerOf(frame: string, sourceOf?: SourceOf): string {
  const position = / (?:file:\/\/)?(\/\S+?\.js):(\d+):(\d+)/.exec(frame);
  const original = position && sourceOf?.(position[1] as string, Number(position[2]), Number(position[3]));
  const named = original ?? frame;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(named);
  if (pkg) return pkg[1] as string;
  if (original) {
    const module = /(?:^|\/)(src\/.+?)\.[cm]?[jt]s$/.exec(original);
    if (module) return module[1] as string;
  }
  const ours = /dist\/(src\/[^:]+?)\.js/.exec(frame);
  if (ours) return ours[1] as string;
  const internal = / (node:[^:]+)/.exec(frame);
  return internal ? (internal[1] as string) : "other JavaScript";
}

/** `SourceOf` from the `.map` beside each built file (read once a file), as the build writes them. */
export function sourceMapsBeside(): SourceOf {
  const maps = new Map<string, SourceMap | undefined>();
  return (file, line, column) => {
    if (!maps.has(file)) {
      let map: SourceMap | undefined;
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
      } catch {
        map = undefined;
      }
      maps.set(file, map);
    }
    // A perf map's positions count from 1, a source map's from 0.
    const entry = maps.get(file)?.findEntry(line - 1, column - 1) as { originalSource?: string } | undefined;
    return entry?.originalSource;
  };
}

/** What a sample on one of V8's helper threads was doing. */
export function helperJob(frames: string[]): string {
  if (frames.some((f) => f.includes("compiler::") || f.includes("Compile"))) return "V8 compiler threads";
  if (frames.some((f) => /Scaveng|Mark|Sweep|Heap|Evacuat/.test(f))) return "V8 collector threads";
  return "other threads";
}

/** Shares of the samples, by the code that ran (see above), largest first. */
export function summarise(samples: Sample[], sourceOf?: SourceOf): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const sample of samples) {
    let key: string;
    if (sample.tid !== sample.pid) key = helperJob(sample.frames);
    else {
      const leaf = sample.frames[0] ?? "";
      const js = sample.frames.find((f) => f.startsWith("JS:"));
      const where = leaf.includes("[kernel.kallsyms]") ? "kernel" : "user";
      key = `${js ? ownerOf(js, sourceOf) : "no JavaScript frame"} (${where})`;
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]): [string, number] => [key, count / samples.length]).sort((a, b) => b[1] - a[1]);
}

async function readSamples(file: string): Promise<Sample[]> {
  const perf = spawn("perf", ["script", "-i", file, "-F", "pid,tid,ip,sym,dso"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const samples: Sample[] = [];
  let current: Sample | undefined;
  for await (const line of createInterface({ input: perf.stdout })) {
    if (line.trim() === "") continue;
    const head = /^\s*(\d+)\/(\d+)\s*$/.exec(line);
    if (head) {
      current = { pid: Number(head[1]), tid: Number(head[2]), frames: [] };
      samples.push(current);
    } else {
      // "\t<address> <symbol> (<object>)"
      current?.frames.push(line.trim().replace(/^[0-9a-f]+ /, ""));
    }
  }
  return samples;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node dist/bench/perf-summary.js <file.perf.data> [lines]");
    process.exit(2);
  }
  const samples = await readSamples(file);
  console.log(`${samples.length} samples`);
  for (const [key, share] of summarise(samples, sourceMapsBeside()).slice(0, Number(process.argv[3] ?? 40))) {
    console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${key}`);
  }
}
