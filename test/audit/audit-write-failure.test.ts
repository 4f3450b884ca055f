import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostingService } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { createAccount, type TestAccount } from "../identity/identity-fixture.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The event is written after the call (docs/audit-log.md). When that write fails the
// change stands and its answer is unchanged (a retry could repeat it), and the event is not
// lost silently: one error line carries all of it, so it can be put back from the log.
describe("an audit event that cannot be written", () => {
  let server: TestServer;
  let studio: TestAccount;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const logger = pino({ level: "error" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    server = await startTestServer({ logger });
    studio = await createAccount(server);
  });
  afterAll(() => server.close());

  it("leaves the write answered as done and logs the whole event at error", async () => {
    const db = server.db.database.prisma;
    await db.$executeRawUnsafe("ALTER TABLE audit_events RENAME TO audit_events_away");
    try {
      const game = await server
        .client(HostingService, "connect", studio.ownerKey)
        .createGame({ parent: studio.name, game: { displayName: "Kept" } });
      expect(await db.game.count({ where: { displayName: "Kept" } })).toBe(1);
      const line = lines.find((entry) => entry.msg === "audit event NOT recorded");
      expect(line).toMatchObject({
        level: 50,
        rpc: "encore.hosting.v1.HostingService/CreateGame",
        auditEvent: {
          method: "encore.hosting.v1.HostingService/CreateGame",
          resource: game.name,
          accountId: studio.accountId,
          actorType: "API_KEY",
          changedFields: ["display_name"],
          address: "127.0.0.1",
          code: 0,
        },
      });
      expect(JSON.stringify(lines)).not.toContain(studio.ownerKey);
      expect(await server.app.metrics.scrape()).toMatch(/^encore_audit_write_failures_total 1$/m);
    } finally {
      await db.$executeRawUnsafe("ALTER TABLE audit_events_away RENAME TO audit_events");
    }
  });
});
