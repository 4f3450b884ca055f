import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, it } from "vitest";
import { engineAvailable, type GameHarness, runScenarios, startGameHarness } from "./game-harness.js";
import { verifyScenarios } from "./verify-scenarios.js";

// The C# core for Unity (clients/unity), compiled with Debian's mono and run against
// the service and the simulator. The core is compiled against the base class library alone
// (no UnityEngine, no System.Net.Http); the Unity/ adapter is not compiled here.
const MCS = "/usr/bin/mcs";
const MONO = "/usr/bin/mono";
const CLIENT = fileURLToPath(new URL("../../clients/unity", import.meta.url));
const sources = (folder: string) =>
  readdirSync(join(CLIENT, folder))
    .filter((name) => name.endsWith(".cs"))
    .map((name) => join(CLIENT, folder, name));

describe.skipIf(!(engineAvailable(MCS) && engineAvailable(MONO)))("C# core for Unity on mono", () => {
  let harness: GameHarness;
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "encore-unity-"));
    const core = join(out, "Encore.Campaigns.Core.dll");
    const compile = (args: string[]) => execFileSync(MCS, ["-warnaserror", ...args], { encoding: "utf8" });
    compile([
      "-target:library",
      `-out:${core}`,
      "-noconfig",
      "-r:System.dll",
      "-r:System.Core.dll",
      ...sources("Core"),
      ...sources("Simulator"),
    ]);
    compile([`-out:${join(out, "scenarios.exe")}`, `-r:${core}`, "-r:System.Net.Http.dll", ...sources("Tests")]);
    harness = await startGameHarness();
  });
  afterAll(async () => {
    await harness?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("reads funding and offers, buys to CREDITED, takes a decline and a dismissal as no, backs off on 429, retries 502/503/504 and resets on offers, begin (same requestId) and complete, polls a late settlement to CREDITED and stops after ten polls as pending, times out an unanswered overlay, keeps a callback that beats begin's answer", async () => {
    const run = await runScenarios({
      command: MONO,
      args: [join(out, "scenarios.exe")],
      env: harness.env,
      timeoutMs: 150_000,
    });
    await verifyScenarios(harness, run);
  }, 170_000);
});
