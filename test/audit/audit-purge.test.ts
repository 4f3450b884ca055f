import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostingService } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { createAuditPurge } from "../../src/jobs/purges.js";
import { createAccount, type TestAccount } from "../identity/identity-fixture.js";
import { refusal } from "../support/refusal.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const DAY = 24 * 60 * 60_000;
const START = new Date("2026-01-01T00:00:00Z");

// "Retention from config". Events older than AUDIT_RETENTION_DAYS are deleted by the
// audit purge, the one delete the table allows; younger ones stay.
describe("audit retention", () => {
  let server: TestServer;
  let studio: TestAccount;
  let clock = START;
  beforeAll(async () => {
    server = await startTestServer({ now: () => clock });
    studio = await createAccount(server);
  });
  afterAll(() => server.close());

  const db = () => server.db.database.prisma;
  const purge = (retentionDays: number) =>
    createAuditPurge({ deps: { db: db(), now: () => clock, logger: pino({ level: "silent" }) }, retentionDays });
  const write = (name: string) =>
    server
      .client(HostingService, "connect", studio.ownerKey)
      .createGame({ parent: studio.name, game: { displayName: name } });
  const resources = async () =>
    (
      await db().auditEvent.findMany({ where: { method: { endsWith: "/CreateGame" } }, orderBy: { createTime: "asc" } })
    ).map((row) => row.request);

  it("reads AUDIT_RETENTION_DAYS, 400 by default, and refuses a bad value", () => {
    expect(loadConfig({}).auditRetentionDays).toBe(400);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: "30" }).auditRetentionDays).toBe(30);
    for (const bad of ["0", "-1", "1.5", "soon"]) {
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: bad })).toThrow(ConfigError);
    }
  });

  it("deletes the events past retention and keeps the others", async () => {
    clock = START;
    await write("old");
    clock = new Date(START.getTime() + 20 * DAY);
    await write("young");
    clock = new Date(START.getTime() + 30 * DAY + 1);
    const deleted = await purge(30).runOnce();
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await resources()).toEqual([{ parent: studio.name, game: { displayName: "young" } }]);
    expect(await purge(30).runOnce()).toBe(0);
  });

  it("deletes in batches, running again at once while a batch comes back full", async () => {
    clock = new Date(START.getTime() + 50 * DAY);
    await purge(0).runOnce();
    expect(await db().auditEvent.count()).toBe(0);
    for (let i = 0; i < 5; i++) await write(`batch ${i}`);
    clock = new Date(START.getTime() + 81 * DAY);
    const batched = (batch: number) =>
      createAuditPurge({
        deps: { db: db(), now: () => clock, logger: pino({ level: "silent" }) },
        retentionDays: 30,
        batch,
      });
    expect(await batched(2).runOnce()).toBe(2);
    expect(await db().auditEvent.count()).toBe(3);
    const job = createAuditPurge({
      deps: { db: db(), now: () => clock, logger: pino({ level: "silent" }) },
      retentionDays: 30,
      batch: 1,
      intervalMs: 60 * 60_000,
    });
    job.start();
    job.wake();
    // The hour-long interval never comes in this test: only full batches make it run again.
    await expect.poll(() => db().auditEvent.count()).toBe(0);
    await job.stop();
  });

  it("runs on its interval once started and stops cleanly", async () => {
    clock = new Date(START.getTime() + 100 * DAY);
    await write("later");
    clock = new Date(START.getTime() + 131 * DAY);
    const job = createAuditPurge({
      deps: { db: db(), now: () => clock, logger: pino({ level: "silent" }) },
      retentionDays: 30,
      intervalMs: 5,
    });
    job.start();
    await expect.poll(resources).toEqual([]);
    await job.stop();
  });

  it("lets replicas purge at once, each event deleted once (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    clock = new Date(START.getTime() + 200 * DAY);
    for (let i = 0; i < 10; i++) await write(`replica ${i}`);
    await refusal(
      server.client(HostingService, "connect", "ek_unknown_000000000000000000").listGames({ parent: studio.name }),
    );
    const before = await db().auditEvent.count({ where: { createTime: { lt: new Date(clock.getTime() + 1) } } });
    expect(before).toBeGreaterThan(10);
    clock = new Date(START.getTime() + 231 * DAY);
    const counts = await Promise.all([purge(30).runOnce(), purge(30).runOnce(), purge(30).runOnce()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(before);
    expect(await db().auditEvent.count()).toBe(0);
  });
});
