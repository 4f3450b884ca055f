import { Code } from "@connectrpc/connect";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { createSessionPurge } from "../../src/jobs/purges.js";
import { refusal } from "../support/refusal.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { createAccount, createMemberSession, type TestAccount } from "./identity-fixture.js";

const START = new Date("2026-11-22T08:00:00Z");

// Expired sessions are deleted by a job, never kept forever; a live one is left alone.
describe("session purge", () => {
  let server: TestServer;
  let account: TestAccount;
  let clock = START;
  beforeAll(async () => {
    server = await startTestServer({ now: () => clock });
    account = await createAccount(server);
  });
  afterAll(() => server.close());

  const db = () => server.db.database.prisma;
  const purge = () => createSessionPurge({ deps: { db: db(), now: () => clock, logger: pino({ level: "silent" }) } });
  const issue = (email: string, ttlSeconds: bigint) =>
    createMemberSession(server, account, { email, role: Role.VIEWER, ttlSeconds });

  it("deletes the sessions that expired and keeps the live ones working", async () => {
    clock = START;
    const short = await issue("short@example.com", 60n);
    const long = await issue("long@example.com", 3600n);
    clock = new Date(START.getTime() + 60_000);
    expect(await purge().runOnce()).toBe(1);
    const left = await db().session.findMany({ select: { memberId: true } });
    expect(left.map((row) => row.memberId)).toEqual([long.member.split("/").pop()]);
    expect(
      await refusal(server.client(AccountService, "connect", short.token).getAccount({ name: account.name })),
    ).toMatchObject({ code: Code.Unauthenticated });
    await expect(
      server.client(AccountService, "connect", long.token).getAccount({ name: account.name }),
    ).resolves.toBeDefined();
    expect(await purge().runOnce()).toBe(0);
    await db().session.deleteMany();
  });

  it("runs on its interval once started and stops cleanly", async () => {
    clock = START;
    await issue("interval@example.com", 1n);
    clock = new Date(START.getTime() + 1_000);
    const job = createSessionPurge({
      deps: { db: db(), now: () => clock, logger: pino({ level: "silent" }) },
      intervalMs: 5,
    });
    job.start();
    await expect.poll(() => db().session.count()).toBe(0);
    await job.stop();
  });

  it("lets several replicas purge at once, each expired session deleted once (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    clock = START;
    for (let i = 0; i < 20; i++) await issue(`replica${i}@example.com`, 30n);
    clock = new Date(START.getTime() + 30_000);
    const counts = await Promise.all([purge().runOnce(), purge().runOnce(), purge().runOnce()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(20);
    expect(await db().session.count()).toBe(0);
  });
});
