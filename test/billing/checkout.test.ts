import { Code } from "@connectrpc/connect";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BillingService,
  CheckoutSession_State,
  LedgerEntry_Type,
} from "../../gen/encore/billing/v1/billing_service_pb.js";
import { CHECKOUT_SESSION_LIFETIME_MS, createCheckoutExpiry } from "../../src/jobs/purges.js";
import { DOLLAR } from "../support/seed.js";
import { type Studio, seedProject, seedStudio } from "../support/seed-hosting.js";
import { onPostgres } from "../support/test-database.js";
import { type QuietServer, startQuietServer } from "../transfer/support/quiet-server.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const usd = (units: bigint, nanos = 0) => ({ currencyCode: "USD", units, nanos });

describe("CreateCheckoutSession: credit for a top-up-only project, exactly once", () => {
  let server: QuietServer;
  let studio: Studio;
  beforeAll(async () => {
    server = await startQuietServer(NOW);
    studio = await seedStudio(server.db, { balanceNanos: 5n * DOLLAR });
  });
  afterAll(() => server.close());

  const billing = (token: string) => server.client(BillingService, token);
  const campaignProject = () => `accounts/${studio.accountId}/projects/${studio.projectId}`;
  const balance = async () =>
    (await server.db.project.findUniqueOrThrow({ where: { id: studio.projectId } })).balanceNanos;
  const sessionId = (name: string) => name.split("/").pop() as string;

  async function open(amount = usd(20n)) {
    return billing(studio.tokens.BILLING).createCheckoutSession({
      parent: `accounts/${studio.accountId}`,
      checkoutSession: { project: campaignProject(), amount },
    });
  }

  it("opens a session, and the provider's completion credits the project once, however often it comes", async () => {
    const session = await open();
    expect(session).toMatchObject({ project: campaignProject(), amount: usd(20n), state: CheckoutSession_State.OPEN });
    expect(session.checkoutUrl).toMatch(/^https:\/\//);
    const before = await balance();

    expect(await server.pay(sessionId(session.name))).toBe("credited");
    expect(await server.pay(sessionId(session.name))).toBe("alreadyComplete");
    expect(await balance()).toBe(before + 20n * DOLLAR);
    const read = await billing(studio.tokens.OWNER).getCheckoutSession({ name: session.name });
    expect(read.state).toBe(CheckoutSession_State.COMPLETE);

    const ledger = await billing(studio.tokens.BILLING).listLedgerEntries({ parent: campaignProject() });
    const topUps = ledger.ledgerEntries.filter((e) => e.source === session.name);
    expect(topUps).toHaveLength(1);
    expect(topUps[0]).toMatchObject({ type: LedgerEntry_Type.DEVELOPER_TOP_UP, amount: usd(20n) });
  });

  it("credits once when the provider's notifications race (PostgreSQL)", async (context) => {
    if (!onPostgres(server.testDb)) context.skip();
    const session = await open(usd(7n, 500_000_000));
    const before = await balance();
    const results = await Promise.all(Array.from({ length: 8 }, () => server.pay(sessionId(session.name))));
    expect(results.filter((r) => r === "credited")).toHaveLength(1);
    expect(await balance()).toBe(before + 7n * DOLLAR + DOLLAR / 2n);
    expect(await server.db.ledgerEntry.count({ where: { checkoutSessionId: sessionId(session.name) } })).toBe(1);
  });

  it("buys account credit without a project", async () => {
    const session = await billing(studio.tokens.OWNER).createCheckoutSession({
      parent: `accounts/${studio.accountId}`,
      checkoutSession: { amount: usd(3n) },
    });
    expect(session.project).toBe("");
    const before = await balance();
    expect(await server.pay(sessionId(session.name))).toBe("credited");
    const account = await server.db.account.findUniqueOrThrow({ where: { id: studio.accountId } });
    expect(account.creditNanos).toBe(3n * DOLLAR);
    expect(await balance()).toBe(before);
  });

  it("answers a retried create with the same request id with the same session", async () => {
    const create = () =>
      billing(studio.tokens.OWNER).createCheckoutSession({
        parent: `accounts/${studio.accountId}`,
        checkoutSession: { project: campaignProject(), amount: usd(1n) },
        requestId: "checkout-retry-1",
      });
    const first = await create();
    expect((await create()).name).toBe(first.name);
  });

  it("refuses a request id reused with another amount or project with ALREADY_EXISTS", async () => {
    const create = (amount: ReturnType<typeof usd>, project?: string) =>
      billing(studio.tokens.OWNER).createCheckoutSession({
        parent: `accounts/${studio.accountId}`,
        checkoutSession: { ...(project ? { project } : {}), amount },
        requestId: "checkout-reused-1",
      });
    const first = await create(usd(2n), campaignProject());
    await expect(create(usd(3n), campaignProject())).rejects.toMatchObject({ code: Code.AlreadyExists });
    await expect(create(usd(2n))).rejects.toMatchObject({ code: Code.AlreadyExists });
    expect((await create(usd(2n), campaignProject())).name).toBe(first.name);
    expect(await server.db.checkoutSession.count({ where: { requestId: "checkout-reused-1" } })).toBe(1);
  });

  it("expires a session left unpaid for a day, and a payment arriving afterwards credits nothing", async () => {
    const stale = await open(usd(4n));
    server.clock.now = new Date(NOW.getTime() + CHECKOUT_SESSION_LIFETIME_MS - 1);
    const fresh = await open(usd(5n));
    server.clock.now = new Date(NOW.getTime() + CHECKOUT_SESSION_LIFETIME_MS + 1);
    const expiry = createCheckoutExpiry({
      deps: { db: server.db, now: () => server.clock.now, logger: pino({ level: "silent" }) },
    });
    try {
      expect(await expiry.runOnce()).toBeGreaterThanOrEqual(1);
      const read = (name: string) => billing(studio.tokens.OWNER).getCheckoutSession({ name });
      expect((await read(stale.name)).state).toBe(CheckoutSession_State.EXPIRED);
      expect((await read(fresh.name)).state).toBe(CheckoutSession_State.OPEN);

      const before = await balance();
      expect(await server.pay(sessionId(stale.name))).toBe("expired");
      expect(await balance()).toBe(before);
      expect(await server.db.ledgerEntry.count({ where: { checkoutSessionId: sessionId(stale.name) } })).toBe(0);
      // A session paid before it expired stays COMPLETE: expiry only ever moves OPEN ones.
      expect(await server.pay(sessionId(fresh.name))).toBe("credited");
      server.clock.now = new Date(NOW.getTime() + 3 * CHECKOUT_SESSION_LIFETIME_MS);
      await expiry.runOnce();
      expect((await read(fresh.name)).state).toBe(CheckoutSession_State.COMPLETE);
    } finally {
      server.clock.now = NOW;
    }
  });

  it("never both expires and credits a session when payment and expiry race (PostgreSQL)", async (context) => {
    if (!onPostgres(server.testDb)) context.skip();
    const sessions = await Promise.all(Array.from({ length: 6 }, () => open(usd(1n))));
    server.clock.now = new Date(NOW.getTime() + CHECKOUT_SESSION_LIFETIME_MS + 1);
    const expiry = createCheckoutExpiry({
      deps: { db: server.db, now: () => server.clock.now, logger: pino({ level: "silent" }) },
    });
    try {
      const [, ...paid] = await Promise.all([expiry.runOnce(), ...sessions.map((s) => server.pay(sessionId(s.name)))]);
      for (const [index, session] of sessions.entries()) {
        const row = await server.db.checkoutSession.findUniqueOrThrow({ where: { id: sessionId(session.name) } });
        const entries = await server.db.ledgerEntry.count({ where: { checkoutSessionId: row.id } });
        expect([paid[index], row.state, entries]).toEqual(
          paid[index] === "credited" ? ["credited", "COMPLETE", 1] : ["expired", "EXPIRED", 0],
        );
      }
    } finally {
      server.clock.now = NOW;
    }
  });

  it.each([
    ["an ordinary project (paid by the account's payment method)", "ordinary", usd(1n), Code.InvalidArgument],
    ["fractions of a cent", "campaign", usd(1n, 1), Code.InvalidArgument],
    ["nothing", "campaign", usd(0n), Code.InvalidArgument],
    ["another account's project", "foreign", usd(1n), Code.NotFound],
  ] as const)("refuses buying credit for %s", async (_, which, amount, code) => {
    const project =
      which === "campaign"
        ? campaignProject()
        : which === "ordinary"
          ? (await seedProject(server.db, studio.accountId)).name
          : (await seedProject(server.db, (await seedStudio(server.db)).accountId, { topUpOnly: true })).name;
    const attempt = billing(studio.tokens.OWNER).createCheckoutSession({
      parent: `accounts/${studio.accountId}`,
      checkoutSession: { project, amount },
    });
    await expect(attempt).rejects.toMatchObject({ code });
  });

  it.each(["ADMIN", "VIEWER"] as const)("answers %s NOT_FOUND: checkout travels with billing", async (role) => {
    const attempt = billing(studio.tokens[role]).createCheckoutSession({
      parent: `accounts/${studio.accountId}`,
      checkoutSession: { project: campaignProject(), amount: usd(1n) },
    });
    await expect(attempt).rejects.toMatchObject({ code: Code.NotFound });
  });

  it("creates and reads sessions over REST", async () => {
    const created = await server.rest(
      "POST",
      `/v1/accounts/${studio.accountId}/checkoutSessions`,
      studio.tokens.BILLING,
      {
        project: campaignProject(),
        amount: { currencyCode: "USD", units: "2", nanos: 0 },
      },
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ state: "STATE_OPEN", amount: { units: "2" } });
    const read = await server.rest("GET", `/v1/${created.body.name}`, studio.tokens.OWNER);
    expect(read.body).toEqual(created.body);
  });
});
