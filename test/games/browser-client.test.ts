import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type GameHarness, runScenarios, startGameHarness } from "./game-harness.js";
import { verifyScenarios } from "./verify-scenarios.js";

// The browser/Electron client (clients/browser/encore-client.js) runs the same
// scenarios as the Godot addon and the C# core, in Node's fetch (what Electron's main process
// has); browser-store.test.ts runs the store page itself in Chromium.
const RUNNER = fileURLToPath(new URL("../../clients/browser/tests/scenarios.mjs", import.meta.url));

describe("browser client scenarios in Node", () => {
  let harness: GameHarness;
  beforeAll(async () => {
    harness = await startGameHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("reads funding and offers, buys to CREDITED, takes a decline and a dismissal as no, backs off on 429, retries 502/503/504 and resets on offers, begin (same requestId) and complete, polls a late settlement to CREDITED and stops after ten polls as pending, times out an unanswered overlay, keeps a callback that beats begin's answer", async () => {
    const run = await runScenarios({ command: process.execPath, args: [RUNNER], env: harness.env, timeoutMs: 150_000 });
    await verifyScenarios(harness, run);
  }, 170_000);
});
