import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { refusal } from "../support/refusal.js";
import { DOLLAR, seedCampaign } from "../support/seed.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

const usd = (units: bigint, nanos = 0) => ({ currencyCode: "USD", units, nanos });

describe("OperatorService: outstanding limits and settlements", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const operator = () => server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
  const seedLink = async (outstandingNanos = 0n) => {
    const seeded = await seedCampaign(server.db.database.prisma, { outstandingNanos });
    return { ...seeded, name: `accounts/${seeded.accountId}/distributorLinks/${seeded.linkId}` };
  };
  const outstanding = async (linkId: string) =>
    (await server.db.database.prisma.distributorLink.findUniqueOrThrow({ where: { id: linkId } })).outstandingNanos;

  it("sets a link's outstanding limit", async () => {
    const { name } = await seedLink();
    const link = await operator().setOutstandingLimit({ name, outstandingLimit: usd(250n, 500_000_000) });
    expect(link).toMatchObject({ name, outstandingLimit: usd(250n, 500_000_000) });
    expect(link.steam?.publisherKey).toBeUndefined();
    const zero = await operator().setOutstandingLimit({ name, outstandingLimit: usd(0n) });
    expect(zero.outstandingLimit).toMatchObject(usd(0n));
  });

  it.each([
    ["negative", usd(-1n)],
    ["a fraction of a cent", usd(1n, 5_000_000)],
    ["not USD", { currencyCode: "EUR", units: 1n, nanos: 0 }],
  ])("refuses a limit that is %s with INVALID_ARGUMENT", async (_, outstandingLimit) => {
    const { name } = await seedLink();
    expect(await refusal(operator().setOutstandingLimit({ name, outstandingLimit }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("answers an unknown link NOT_FOUND", async () => {
    const { accountId } = await seedLink();
    const name = `accounts/${accountId}/distributorLinks/nope`;
    expect(await refusal(operator().setOutstandingLimit({ name, outstandingLimit: usd(1n) }))).toMatchObject({
      code: Code.NotFound,
    });
    expect(await refusal(operator().recordSettlement({ parent: name, amount: usd(1n) }))).toMatchObject({
      code: Code.NotFound,
    });
  });

  it("records a settlement and lowers outstanding by as much, down to zero and not below", async () => {
    const { name, linkId } = await seedLink(30n * DOLLAR);
    const settlement = await operator().recordSettlement({
      parent: name,
      amount: usd(12n, 500_000_000),
      reference: "INV-1",
    });
    expect(settlement.name).toMatch(new RegExp(`^${name}/settlements/[a-z0-9]+$`));
    expect(settlement).toMatchObject({ amount: usd(12n, 500_000_000), reference: "INV-1" });
    expect(await outstanding(linkId)).toBe(17n * DOLLAR + 500_000_000n);

    const over = await refusal(operator().recordSettlement({ parent: name, amount: usd(17n, 510_000_000) }));
    expect(over).toMatchObject({ code: Code.FailedPrecondition, reason: "SETTLEMENT_EXCEEDS_OUTSTANDING" });
    expect(await outstanding(linkId)).toBe(17n * DOLLAR + 500_000_000n);

    await operator().recordSettlement({ parent: name, amount: usd(17n, 500_000_000) });
    expect(await outstanding(linkId)).toBe(0n);
    expect(await server.db.database.prisma.settlement.count({ where: { linkId } })).toBe(2);
  });

  it.each([
    ["zero", usd(0n)],
    ["negative", usd(-5n)],
  ])("refuses a settlement of %s with INVALID_ARGUMENT", async (_, amount) => {
    const { name } = await seedLink(10n * DOLLAR);
    expect(await refusal(operator().recordSettlement({ parent: name, amount }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("is idempotent on request_id", async () => {
    const { name, linkId } = await seedLink(10n * DOLLAR);
    const first = await operator().recordSettlement({ parent: name, amount: usd(4n), requestId: "settle-1" });
    const again = await operator().recordSettlement({ parent: name, amount: usd(4n), requestId: "settle-1" });
    expect(again.name).toBe(first.name);
    expect(await outstanding(linkId)).toBe(6n * DOLLAR);
    expect(
      await refusal(operator().recordSettlement({ parent: name, amount: usd(5n), requestId: "settle-1" })),
    ).toMatchObject({
      code: Code.AlreadyExists,
    });
  });

  it("records concurrent settlements with one request_id once (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    const { name, linkId } = await seedLink(100n * DOLLAR);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        operator().recordSettlement({ parent: name, amount: usd(10n), requestId: "settle-race" }),
      ),
    );
    expect(new Set(results.map((settlement) => settlement.name)).size).toBe(1);
    expect(await server.db.database.prisma.settlement.count({ where: { linkId } })).toBe(1);
    expect(await outstanding(linkId)).toBe(90n * DOLLAR);
  });

  it("never lets concurrent settlements take outstanding below zero (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    const { name, linkId } = await seedLink(25n * DOLLAR);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => operator().recordSettlement({ parent: name, amount: usd(10n) })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(2);
    expect(await outstanding(linkId)).toBe(5n * DOLLAR);
  });
});
