import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdLease } from "../../src/store/leases.js";
import { leaseDuePurchases } from "../../src/store/purchase-leases.js";
import { DOLLAR, seedCampaign, seedOffer } from "../support/seed.js";
import { seedPurchase } from "../support/seed-purchases.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// src/store/leases.ts, through the settlement sweeper's lease on purchases: a lease holds until
// its time and has run out from then on; only its holder renews or releases it; rows another
// caller is taking are skipped, never waited for.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const prisma = () => db.database.prisma;
const NOW = new Date("2026-11-26T12:00:00.000Z");
const LEASE_MS = 60_000;
const at = (ms: number) => new Date(NOW.getTime() + ms);

/** An open purchase begun a minute before NOW: due for the sweeper. */
async function duePurchase(): Promise<string> {
  const campaign = await seedCampaign(prisma(), { reservedNanos: DOLLAR });
  const offerId = await seedOffer(prisma(), campaign.campaignId, { priceNanos: 2n * DOLLAR, creditNanos: DOLLAR });
  return seedPurchase(prisma(), campaign, offerId, { state: "AUTHORIZED", createTime: at(-60_000) });
}

/** Whether the sweeper, at `now`, takes `id` (other tests' purchases share the database). */
async function takes(id: string, now: Date): Promise<boolean> {
  const taken = await leaseDuePurchases(prisma(), { now, dueBefore: now, leaseUntil: at(LEASE_MS), limit: 1_000 });
  return taken.includes(id);
}

const leaseOf = async (id: string) => (await prisma().purchase.findUniqueOrThrow({ where: { id } })).leaseUntil;

describe("row leases", () => {
  it("keeps a leased row from every other caller until its time, and gives it up at that very time", async () => {
    const id = await duePurchase();
    expect(await takes(id, NOW)).toBe(true);
    expect(await takes(id, at(LEASE_MS - 1))).toBe(false);
    expect(await takes(id, at(LEASE_MS))).toBe(true);
  });

  it("is renewed only by its holder, and only while it has not run out", async () => {
    const id = await duePurchase();
    expect(await takes(id, NOW)).toBe(true);
    let clock = at(LEASE_MS - 1);
    const holder = holdLease(prisma(), "sweep", { id, heldUntil: at(LEASE_MS), now: () => clock, leaseMs: LEASE_MS });
    // A holder that took an earlier lease (overtaken) writes nothing.
    const overtaken = holdLease(prisma(), "sweep", { id, heldUntil: NOW, now: () => clock, leaseMs: LEASE_MS });
    expect(await overtaken.renew()).toBe(false);
    expect(await holder.renew()).toBe(true);
    expect(await leaseOf(id)).toEqual(at(2 * LEASE_MS - 1));
    // Run out, though nobody took it since: no longer the holder's to renew.
    clock = at(2 * LEASE_MS - 1);
    expect(await holder.renew()).toBe(false);
  });

  it("is released by its holder alone", async () => {
    const id = await duePurchase();
    expect(await takes(id, NOW)).toBe(true);
    const lease = (heldUntil: Date) =>
      holdLease(prisma(), "sweep", { id, heldUntil, now: () => NOW, leaseMs: LEASE_MS });
    await lease(NOW).release();
    expect(await leaseOf(id)).toEqual(at(LEASE_MS));
    await lease(at(LEASE_MS)).release();
    expect(await leaseOf(id)).toBeNull();
    expect(await takes(id, NOW)).toBe(true);
  });

  it("skips a row another transaction has locked, without waiting for it", async (ctx) => {
    if (!onPostgres(db)) ctx.skip();
    const [locked, free] = [await duePurchase(), await duePurchase()];
    await prisma().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM purchases WHERE id = ${locked} FOR UPDATE`;
      const taken = await leaseDuePurchases(prisma(), {
        now: NOW,
        dueBefore: NOW,
        leaseUntil: at(LEASE_MS),
        limit: 1_000,
      });
      expect(taken).toContain(free);
      expect(taken).not.toContain(locked);
    });
    expect(await takes(locked, NOW)).toBe(true);
  });
});
