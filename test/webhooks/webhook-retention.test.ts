import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { createWebhookPurge } from "../../src/jobs/purges.js";
import { seedStudio } from "../support/seed-hosting.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

const DAY = 24 * 60 * 60_000;
const START = new Date("2026-01-01T00:00:00Z");
const at = (days: number) => new Date(START.getTime() + days * DAY);

type DeliveryState = "PENDING" | "SUCCEEDED" | "FAILED";

// Follow-up: the webhook outbox is purged WEBHOOK_RETENTION_DAYS after an event was
// created, once every one of its deliveries is finished; an event still being delivered stays.
describe("webhook retention", () => {
  let db: TestDatabase;
  let accountId: string;
  let endpoints: string[];
  let clock = START;
  let sequence = 0;
  beforeAll(async () => {
    db = await createTestDatabase();
    accountId = (await seedStudio(prisma())).accountId;
    endpoints = [];
    for (const name of ["a", "b"]) {
      const endpoint = await prisma().webhookEndpoint.create({
        data: {
          id: `we_retention_${name}`,
          accountId,
          url: `https://${name}.example.com/hook`,
          eventTypes: ["settlement.recorded"],
          secretEncrypted: new Uint8Array([1]),
        },
      });
      endpoints.push(endpoint.id);
    }
  });
  afterAll(() => db?.drop());

  const prisma = () => db.database.prisma;
  const purge = (options: { retentionDays?: number; batch?: number; intervalMs?: number } = {}) =>
    createWebhookPurge({
      deps: { db: prisma(), now: () => clock, logger: pino({ level: "silent" }) },
      retentionDays: options.retentionDays ?? 30,
      ...(options.batch === undefined ? {} : { batch: options.batch }),
      ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    });

  /** An event created at `created`, with one delivery per endpoint in the states given. */
  async function event(created: Date, states: DeliveryState[]): Promise<string> {
    sequence += 1;
    const id = `evt_retention_${String(sequence).padStart(4, "0")}`;
    await prisma().webhookEvent.create({
      data: { id, accountId, type: "settlement.recorded", payload: "{}", createTime: created },
    });
    for (const [index, state] of states.entries()) {
      await prisma().webhookDelivery.create({
        data: {
          id: `${id}_${index}`,
          eventId: id,
          endpointId: endpoints[index] ?? "",
          state,
          nextAttemptTime: state === "PENDING" ? created : null,
          createTime: created,
        },
      });
    }
    return id;
  }
  const eventIds = async () => (await prisma().webhookEvent.findMany({ orderBy: { id: "asc" } })).map((row) => row.id);
  const deliveriesOf = (eventId: string) => prisma().webhookDelivery.count({ where: { eventId } });

  it("reads WEBHOOK_RETENTION_DAYS, 30 by default, and refuses a bad value", () => {
    expect(loadConfig({}).webhooks.retentionDays).toBe(30);
    expect(loadConfig({ WEBHOOK_RETENTION_DAYS: "7" }).webhooks.retentionDays).toBe(7);
    for (const bad of ["0", "-1", "1.5", "soon", "36501"]) {
      expect(() => loadConfig({ WEBHOOK_RETENTION_DAYS: bad })).toThrow(ConfigError);
    }
  });

  it("deletes old events whose deliveries all finished, with their deliveries; keeps pending and recent ones", async () => {
    const delivered = await event(at(0), ["SUCCEEDED", "SUCCEEDED"]);
    const mixed = await event(at(0), ["SUCCEEDED", "FAILED"]);
    const gaveUp = await event(at(1), ["FAILED"]);
    const retrying = await event(at(0), ["SUCCEEDED", "PENDING"]);
    const queued = await event(at(0), ["PENDING"]);
    const recent = await event(at(20), ["SUCCEEDED", "FAILED"]);
    // Thirty days and a moment after the day-1 event.
    clock = new Date(at(31).getTime() + 1);
    expect(await purge().runOnce()).toBe(3);
    expect(await eventIds()).toEqual([retrying, queued, recent]);
    for (const gone of [delivered, mixed, gaveUp]) expect(await deliveriesOf(gone)).toBe(0);
    expect(await deliveriesOf(retrying)).toBe(2);
    expect(await deliveriesOf(recent)).toBe(2);
    expect(await purge().runOnce()).toBe(0);

    // Once the retrying delivery finishes, its event goes at the next run.
    await prisma().webhookDelivery.updateMany({ where: { eventId: retrying }, data: { state: "FAILED" } });
    expect(await purge().runOnce()).toBe(1);
    expect(await eventIds()).toEqual([queued, recent]);
    // The recent one goes once it is past retention too; the queued one never while it waits.
    clock = at(51);
    expect(await purge().runOnce()).toBe(1);
    expect(await eventIds()).toEqual([queued]);
    await prisma().webhookDelivery.updateMany({ where: { eventId: queued }, data: { state: "SUCCEEDED" } });
    expect(await purge().runOnce()).toBe(1);
    expect(await eventIds()).toEqual([]);
  });

  it("deletes in batches, running again at once while a batch comes back full", async () => {
    for (let i = 0; i < 5; i++) await event(at(100), ["SUCCEEDED"]);
    const kept = await event(at(100), ["PENDING"]);
    clock = at(131);
    expect(await purge({ batch: 2 }).runOnce()).toBe(2);
    expect(await prisma().webhookEvent.count()).toBe(4);
    const job = purge({ batch: 1, intervalMs: 60 * 60_000 });
    job.start();
    job.wake();
    // The hour-long interval never comes in this test: only full batches make it run again.
    await expect.poll(eventIds).toEqual([kept]);
    await job.stop();
    await prisma().webhookEvent.delete({ where: { id: kept } });
  });

  it("lets replicas purge at once, each event deleted once (PostgreSQL)", async (context) => {
    if (!onPostgres(db)) context.skip();
    for (let i = 0; i < 30; i++) await event(at(200), ["SUCCEEDED", "FAILED"]);
    clock = at(231);
    const counts = await Promise.all([1, 2, 3].map(() => purge({ batch: 7 }).runOnce()));
    let total = counts.reduce((sum, count) => sum + count, 0);
    while (total < 30) total += await purge({ batch: 7 }).runOnce();
    expect(total).toBe(30);
    expect(await prisma().webhookEvent.count()).toBe(0);
    expect(await prisma().webhookDelivery.count()).toBe(0);
  });
});
