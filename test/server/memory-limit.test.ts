import { afterAll, describe, expect, it } from "vitest";
import { createMemoryCgroup, type MemoryCgroup } from "../support/memory-cgroup.js";
import { freshDataDir, startService } from "../support/service-process.js";

// The built service in a 512 MB memory cgroup, as in the Kubernetes pod: node has V8 size its
// young generation by the limit unless told (docs/performance.md, "The young generation in a
// container"), and the embedded database's first start must fit (docs/deploy.md, DATA_DIR).
// Needs a memory cgroup this process may make (root: CI's machine has one).
function tryMemoryCgroup(): MemoryCgroup | undefined {
  try {
    return createMemoryCgroup(512);
  } catch {
    return undefined;
  }
}
const memoryCgroup = tryMemoryCgroup();
const WARNING = "V8 sized its young generation";

describe.runIf(memoryCgroup)("the service under a 512 MB memory limit", () => {
  afterAll(() => memoryCgroup?.remove());

  async function startUp(nodeOptions?: string[]): Promise<string> {
    const service = startService({ LOG_LEVEL: "info" }, { nodeOptions, memoryCgroup });
    try {
      await service.listening();
      return service.output();
    } finally {
      service.child.kill("SIGKILL");
      await service.exited;
    }
  }

  it("started as the image and npm start start it, says nothing of its heap", async () => {
    expect(await startUp()).not.toContain(WARNING);
  }, 60_000);

  it("started with plain node, warns once that V8 sized its young generation by the limit", async () => {
    const lines = (await startUp([])).split("\n").filter((line) => line.includes(WARNING));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 40, memoryMb: 512 });
  }, 60_000);

  it("makes the embedded database on its first start within the limit (from the build's image, not initdb)", async () => {
    const service = startService({ DATA_DIR: freshDataDir() }, { memoryCgroup });
    try {
      const url = await service.listening();
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    } finally {
      service.child.kill("SIGKILL");
      await service.exited;
    }
  }, 60_000);
});
