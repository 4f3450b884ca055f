import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, it } from "vitest";
import { engineAvailable, type GameHarness, runScenarios, startGameHarness } from "./game-harness.js";
import { verifyScenarios } from "./verify-scenarios.js";

// The Godot addon (clients/godot) in a real headless Godot 3.2 (Debian godot3-server).
const GODOT = "/usr/bin/godot3-server";
const PROJECT = fileURLToPath(new URL("../../clients/godot", import.meta.url));

describe.skipIf(!engineAvailable(GODOT))("Godot addon in godot3-server", () => {
  let harness: GameHarness;
  beforeAll(async () => {
    harness = await startGameHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("reads funding and offers, buys to CREDITED, takes a decline and a dismissal as no, backs off on 429, retries 502/503/504 and resets on offers, begin (same requestId) and complete, polls a late settlement to CREDITED and stops after ten polls as pending, times out an unanswered overlay, keeps a callback that beats begin's answer; the sample store screen buys", async () => {
    const run = await runScenarios({
      command: GODOT,
      args: ["--path", PROJECT, "-s", "res://tests/run_scenarios.gd"],
      env: harness.env,
      timeoutMs: 150_000,
    });
    await verifyScenarios(harness, run, { godotExtras: true });
  }, 170_000);
});
