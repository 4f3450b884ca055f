import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violates } from "../../src/store/constraint-violation.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

// DeleteOffer's fallback (spec 3.3) must recognise the foreign-key failure of a raw statement
// as the driver reports it, not only Prisma's own P2003.
describe('violates(error, "foreign key")', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  async function failure(write: () => Promise<unknown>): Promise<unknown> {
    try {
      await write();
    } catch (error) {
      return error;
    }
    throw new Error("the write did not fail");
  }

  it("recognises a raw statement's foreign-key violation", async () => {
    const prisma = db.database.prisma;
    const error = await failure(
      () =>
        prisma.$executeRaw`INSERT INTO games (id, account_id, display_name) VALUES (${randomUUID()}, ${randomUUID()}, 'x')`,
    );
    expect(violates(error, "foreign key")).toBe(true);
  });

  it("recognises a Prisma query's foreign-key violation", async () => {
    const prisma = db.database.prisma;
    const error = await failure(() =>
      prisma.game.create({ data: { id: randomUUID(), accountId: randomUUID(), displayName: "x" } }),
    );
    expect(violates(error, "foreign key")).toBe(true);
  });

  it("does not mistake another failure for one", async () => {
    const prisma = db.database.prisma;
    const accountId = randomUUID();
    await prisma.account.create({ data: { id: accountId, displayName: "a" } });
    const error = await failure(() => prisma.account.create({ data: { id: accountId, displayName: "a" } }));
    expect(violates(error, "unique")).toBe(true);
    expect(violates(error, "foreign key")).toBe(false);
  });

  it("recognises a raw statement's unique violation", async () => {
    const prisma = db.database.prisma;
    const accountId = randomUUID();
    await prisma.account.create({ data: { id: accountId, displayName: "a" } });
    const error = await failure(
      () => prisma.$executeRaw`INSERT INTO accounts (id, display_name) VALUES (${accountId}, 'a')`,
    );
    expect(violates(error, "unique")).toBe(true);
    expect(violates(error, "foreign key")).toBe(false);
  });
});
