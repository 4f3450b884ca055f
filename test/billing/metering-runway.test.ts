import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { seedProject, seedResource, seedStudio } from "../support/seed-hosting.js";
import { onPostgres } from "../support/test-database.js";
import { type QuietServer, startQuietServer } from "../transfer/support/quiet-server.js";

const T0 = new Date("2026-11-20T00:00:00Z");
const HOUR = 3_600_000;

describe("metering: running resources pay their hourly price, and the runway follows", () => {
  let server: QuietServer;
  beforeAll(async () => {
    server = await startQuietServer(T0);
  });
  afterAll(() => server.close());

  it("charges whole hours of running resources, once, and funding:get shows the runway from that spend", async () => {
    server.clock.now = T0;
    const studio = await seedStudio(server.db, { ready: true, visibility: "RUNWAY", balanceNanos: 168n * DOLLAR });
    const { accountId, projectId, gameId } = studio;
    await seedResource(server.db, accountId, projectId, { gameId, hourlyPriceNanos: DOLLAR, createTime: T0 });
    await seedResource(server.db, accountId, projectId, {
      gameId,
      hourlyPriceNanos: 5n * DOLLAR,
      state: "STOPPED",
      createTime: T0,
    });

    server.clock.now = new Date(T0.getTime() + 24 * HOUR + 30 * 60_000);
    const report = await server.metering().runOnce();
    expect(report.chargedNanos).toBe(24n * DOLLAR);
    const project = await server.db.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(project.balanceNanos).toBe(144n * DOLLAR);
    const usage = await server.db.ledgerEntry.findMany({ where: { projectId, type: "USAGE" } });
    expect(usage).toHaveLength(24);
    expect(usage.every((e) => e.amountNanos === -DOLLAR)).toBe(true);

    // Again in the same hour: nothing more is charged.
    expect((await server.metering().runOnce()).chargedNanos).toBe(0n);

    // Runway at the last seven days' rate (spec 2.3): $24 spent over the week, $144 left: 144 / (24 / 7) = 42 days.
    const funding = await server.rest("POST", "/v1/public/funding:get", "", { campaignKey: studio.campaignKey });
    expect(funding.status).toBe(200);
    expect(funding.body).toMatchObject({ funded: true, balance: null, runwayDays: "42" });
  });

  it("charges a resource once when several replicas meter at the same time (PostgreSQL)", async (context) => {
    if (!onPostgres(server.testDb)) context.skip();
    server.clock.now = T0;
    const studio = await seedStudio(server.db);
    const project = await seedProject(server.db, studio.accountId);
    for (let i = 0; i < 5; i++) {
      await seedResource(server.db, studio.accountId, project.id, { hourlyPriceNanos: DOLLAR, createTime: T0 });
    }
    server.clock.now = new Date(T0.getTime() + 10 * HOUR);
    const reports = await Promise.all(
      [server.metering(), server.metering(), server.metering()].map((job) => job.runOnce()),
    );
    expect(reports.reduce((sum, r) => sum + r.chargedNanos, 0n)).toBe(50n * DOLLAR);
    const row = await server.db.project.findUniqueOrThrow({ where: { id: project.id } });
    expect(row.balanceNanos).toBe(-50n * DOLLAR);
    expect(await server.db.ledgerEntry.count({ where: { projectId: project.id } })).toBe(50);
  });
});

describe("metering with the public read cache on", () => {
  let server: QuietServer;
  beforeAll(async () => {
    // A minute: a cached answer from before the charge would last the whole test.
    server = await startQuietServer(T0, { PUBLIC_READ_CACHE_MS: "60000" });
  });
  afterAll(() => server.close());

  it("makes funding:get forget its cached answers once it charged", async () => {
    server.clock.now = T0;
    const studio = await seedStudio(server.db, { ready: true, visibility: "RUNWAY", balanceNanos: 168n * DOLLAR });
    await seedResource(server.db, studio.accountId, studio.projectId, {
      gameId: studio.gameId,
      hourlyPriceNanos: DOLLAR,
      createTime: T0,
    });
    const read = () => server.rest("POST", "/v1/public/funding:get", "", { campaignKey: studio.campaignKey });
    // The clock stays put from here: the cache's age is measured on it.
    server.clock.now = new Date(T0.getTime() + 24 * HOUR + 30 * 60_000);
    const before = await read();
    expect(before.body).not.toMatchObject({ runwayDays: "42" });
    expect((await server.metering().runOnce()).chargedNanos).toBe(24n * DOLLAR);
    expect((await read()).body).toMatchObject({ funded: true, runwayDays: "42" });
  });
});
