import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { endChild } from "../../bench/end-child.js";
import { running } from "../../bench/process-cpu.js";

// How the bench ends a child process: it asks it to stop (the child drops its database), and
// kills one that does not stop in time together with what it started, so that a target's service
// never runs on after the bench.

/** A bench child that starts a process of its own (as a target starts the service) and says its pid. */
async function childWithService(obeysStop: boolean): Promise<{ child: ChildProcess; service: number }> {
  const script = `
    const { spawn } = require("node:child_process");
    const service = spawn("sleep", ["60"], { stdio: "ignore" });
    process.on("message", (m) => { if (m.type === "stop" && ${obeysStop}) process.exit(0); });
    process.send({ type: "ready", service: service.pid });`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  started.push(child);
  const [ready] = (await once(child, "message")) as [{ service: number }];
  services.push(ready.service);
  return { child, service: ready.service };
}

const started: ChildProcess[] = [];
const services: number[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const pid of services.splice(0)) if (running(pid)) process.kill(pid, "SIGKILL");
});

describe.skipIf(process.platform !== "linux")("ending a bench child", { timeout: 20_000 }, () => {
  it("asks it to stop and waits for it to exit", async () => {
    const { child } = await childWithService(true);
    await endChild(child, 10_000);
    expect(child.exitCode).toBe(0);
  });

  it("kills one that does not stop in time, and the processes it started", async () => {
    const { child, service } = await childWithService(false);
    expect(running(service)).toBe(true);
    await endChild(child, 300);
    expect(child.signalCode).toBe("SIGKILL");
    for (let i = 0; i < 50 && running(service); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running(service)).toBe(false);
  });

  it("returns at once for a child that has exited", async () => {
    const { child } = await childWithService(true);
    child.kill("SIGKILL");
    await once(child, "exit");
    await endChild(child, 10_000);
    expect(child.signalCode).toBe("SIGKILL");
  });
});
