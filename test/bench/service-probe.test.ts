import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ProbeAnswer, ProbeRequest } from "../../bench/service-probe.js";
import { ROOT } from "../support/built-entries.js";

// The probe the bench loads into the service it runs as a process (bench/targets.ts): the
// statements counted are the ones pg was asked to send, the profile is of the interval asked for,
// and the probe never keeps a process alive.

const PROBE = join(ROOT, "dist/bench/service-probe.js");

function withProbe(script: string): ChildProcess {
  return spawn(process.execPath, ["--import", PROBE, "--input-type=module", "-e", script], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

function ask(child: ChildProcess, request: ProbeRequest): Promise<number> {
  const answered = once(child, "message") as Promise<[ProbeAnswer]>;
  child.send(request);
  return answered.then(([answer]) => answer.statements);
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

describe("the bench's service probe", { timeout: 30_000 }, () => {
  it("counts every statement pg is asked to send, and profiles only between start and stop", async () => {
    // A client that never connects still counts: pg is asked, and queues what it is asked.
    const child = withProbe(`
      import pg from "pg";
      const client = () => new pg.Client({ host: "127.0.0.1", port: 1 });
      process.on("message", (m) => {
        if (m.type !== "send") return;
        client().query("SELECT 1").catch(() => {});
        client().query({ text: "SELECT $1::int", values: [2] }).catch(() => {});
        process.send({ type: "sent" });
      });
      setInterval(() => {}, 1000);`);
    children.push(child);
    expect(await ask(child, { type: "probe:statements" })).toBe(0);
    const sent = once(child, "message");
    child.send({ type: "send" });
    await sent;
    expect(await ask(child, { type: "probe:statements" })).toBe(2);

    const dir = mkdtempSync(join(tmpdir(), "encore-probe-"));
    try {
      // Not profiling from its load: a stop before any start writes nothing.
      const early = join(dir, "early.cpuprofile");
      expect(await ask(child, { type: "probe:profile-stop", file: early })).toBe(2);
      expect(existsSync(early)).toBe(false);
      const file = join(dir, "interval.cpuprofile");
      await ask(child, { type: "probe:profile-start" });
      expect(await ask(child, { type: "probe:profile-stop", file })).toBe(2);
      const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: unknown[]; startTime: number };
      expect(profile.nodes.length).toBeGreaterThan(0);
      expect(profile.startTime).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets a process that has nothing more to do exit, its IPC channel open", async () => {
    const child = withProbe("");
    children.push(child);
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  });
});
