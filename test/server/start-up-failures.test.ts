import { writeFileSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshDataDir, migratedDataDir, type ServiceProcess, startService } from "../support/service-process.js";

// Each failure an operator can cause at start is one line naming the setting at fault, exit 1,
// no stack trace, and never a password.

const secrets = { ENCORE_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"), OPERATOR_TOKEN: "t".repeat(32) };
const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const started: ServiceProcess[] = [];

function start(env: Record<string, string>): ServiceProcess {
  const service = startService(env);
  started.push(service);
  return service;
}

afterEach(() => {
  for (const service of started.splice(0)) service.child.kill("SIGKILL");
});

async function refusal(env: Record<string, string>): Promise<string> {
  const service = start(env);
  expect(await service.exited).toBe(1);
  // stdout has the start-up's own lines (migrations, a new operator token); stderr only this.
  const lines = service.errors().trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(service.output()).not.toMatch(/^\s+at /m);
  return lines[0] ?? "";
}

describe("start-up failures", { timeout: 90_000 }, () => {
  it("names DATABASE_URL, without its password, when the server is unreachable", async () => {
    const line = await refusal({ DATABASE_URL: "postgresql://encore:s3cret-pw@127.0.0.1:1/encore", ...secrets });
    expect(line).toMatch(
      /^start-up failed: DATABASE_URL postgresql:\/\/encore:\*\*\*@127\.0\.0\.1:1\/encore: .*unreachable/,
    );
    expect(line).not.toContain("s3cret-pw");
  });

  it.runIf(testDatabaseUrl)("says how to create a database that does not exist", async () => {
    const url = new URL(testDatabaseUrl as string);
    url.pathname = `/encore_missing_${process.pid}`;
    const line = await refusal({ DATABASE_URL: url.toString(), ...secrets });
    expect(line).toContain(`database "encore_missing_${process.pid}" does not exist`);
    expect(line).toContain(`createdb encore_missing_${process.pid}`);
  });

  it("names PORT and HOST when the port is taken", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const line = await refusal({ PORT: String(port), HOST: "127.0.0.1" });
      expect(line).toBe(`start-up failed: PORT ${port} on HOST 127.0.0.1 is already in use by another process`);
    } finally {
      taken.close();
    }
  });

  it("names the TLS file that cannot be read", async () => {
    const line = await refusal({ TLS_CERT_FILE: "/nonexistent/cert.pem", TLS_KEY_FILE: "/nonexistent/key.pem" });
    expect(line).toBe("start-up failed: TLS_CERT_FILE /nonexistent/cert.pem cannot be read (ENOENT)");
  });

  it("names a HOST that is not this machine's", async () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never a local address.
    const line = await refusal({ HOST: "192.0.2.7" });
    expect(line).toBe("start-up failed: HOST 192.0.2.7 is not an address of this machine");
  });
});

describe("DATA_DIR lock (embedded database)", { timeout: 120_000 }, () => {
  it("refuses a second service on the same DATA_DIR, naming the folder and the first process", async () => {
    const dataDir = migratedDataDir();
    const first = start({ DATA_DIR: dataDir });
    await first.listening();
    const line = await refusal({ DATA_DIR: dataDir });
    expect(line).toContain(`DATA_DIR ${dataDir} is in use by process ${first.child.pid} on `);
    // The first one still serves.
    expect((await fetch(`${await first.listening()}/readyz`)).status).toBe(200);
  });

  it("names a DATA_DIR that cannot be a folder", async () => {
    const file = join(freshDataDir(), "a-file");
    writeFileSync(file, "");
    const line = await refusal({ DATA_DIR: join(file, "data") });
    expect(line).toBe(`start-up failed: DATA_DIR ${join(file, "data")} cannot be used (ENOTDIR)`);
  });

  it("creates a DATA_DIR that does not exist yet, as on a first npm start", async () => {
    const dataDir = join(freshDataDir(), "not-yet", ".data");
    const service = start({ DATA_DIR: dataDir });
    expect((await fetch(`${await service.listening()}/readyz`)).status).toBe(200);
  });

  it("takes over the lock of a service that was killed (SIGKILL)", async () => {
    const dataDir = migratedDataDir();
    const first = start({ DATA_DIR: dataDir });
    await first.listening();
    first.child.kill("SIGKILL");
    await first.exited;
    const second = start({ DATA_DIR: dataDir });
    const url = await second.listening();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });
});

describe("Redis unreachable at start", { timeout: 90_000 }, () => {
  it("serves, warns once, counts in memory, and says so in /readyz", async () => {
    const service = start({ REDIS_URL: "redis://127.0.0.1:1", LOG_LEVEL: "info" });
    const url = await service.listening();
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe("ready\nrate limits: redis unavailable, counting in memory meanwhile\n");
    // ioredis keeps reconnecting meanwhile; still one warning, and no stack.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const warnings = service
      .output()
      .split("\n")
      .filter((l) => l.includes("REDIS_URL"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("stack");
    const res = await fetch(`${url}/v1/public/funding:get`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ campaignKey: "nope" }),
    });
    expect(res.status).toBe(404);
  });
});
