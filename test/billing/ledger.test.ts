import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingService, LedgerEntry_Type } from "../../gen/encore/billing/v1/billing_service_pb.js";
import type { LedgerType } from "../../gen/prisma/enums.js";
import { DOLLAR } from "../support/seed.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { type QuietServer, startQuietServer } from "../transfer/support/quiet-server.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12));

describe("ListLedgerEntries", () => {
  let server: QuietServer;
  let studio: Studio;
  let parent: string;
  beforeAll(async () => {
    server = await startQuietServer(NOW);
    studio = await seedStudio(server.db);
    parent = `accounts/${studio.accountId}/projects/${studio.projectId}`;
    const entries: [LedgerType, bigint, Date][] = [
      ["PLAYER_TOP_UP", 3n * DOLLAR, at(1)],
      ["USAGE", -DOLLAR, at(2)],
      ["DEVELOPER_TOP_UP", 10n * DOLLAR, at(3)],
      ["USAGE", -2n * DOLLAR, at(4)],
      ["PLAYER_TOP_UP", 5n * DOLLAR, at(5)],
    ];
    for (const [type, amountNanos, createTime] of entries) {
      await server.db.ledgerEntry.create({
        data: { id: randomUUID(), projectId: studio.projectId, type, amountNanos, createTime },
      });
    }
  });
  afterAll(() => server.close());

  const list = (filter = "", pageSize = 0, pageToken = "") =>
    server.client(BillingService, studio.tokens.BILLING).listLedgerEntries({ parent, filter, pageSize, pageToken });

  it("pages newest first, with signed amounts", async () => {
    const first = await list("", 2);
    expect(first.ledgerEntries.map((e) => e.createTime?.seconds)).toEqual(
      [at(5), at(4)].map((d) => BigInt(d.getTime() / 1000)),
    );
    expect(first.ledgerEntries[1]?.amount).toEqual({
      $typeName: "google.type.Money",
      currencyCode: "USD",
      units: -2n,
      nanos: 0,
    });
    const second = await list("", 2, first.nextPageToken);
    const third = await list("", 2, second.nextPageToken);
    expect([...second.ledgerEntries, ...third.ledgerEntries]).toHaveLength(3);
    expect(third.nextPageToken).toBe("");
  });

  it.each([
    ['type = "TYPE_PLAYER_TOP_UP"', [LedgerEntry_Type.PLAYER_TOP_UP, LedgerEntry_Type.PLAYER_TOP_UP]],
    ['type = "TYPE_USAGE" AND create_time >= "2026-11-03T00:00:00Z"', [LedgerEntry_Type.USAGE]],
    [
      'create_time >= "2026-11-02T12:00:00Z" AND create_time < "2026-11-04T12:00:00Z"',
      [LedgerEntry_Type.DEVELOPER_TOP_UP, LedgerEntry_Type.USAGE],
    ],
    ['create_time < "2026-11-01T12:00:00+00:00"', []],
  ])("filters by %s", async (filter, types) => {
    expect((await list(filter)).ledgerEntries.map((e) => e.type)).toEqual(types);
  });

  it.each([
    'type = "TYPE_REFUND"',
    'type != "TYPE_USAGE"',
    'create_time > "2026-11-01T00:00:00Z"',
    'create_time >= "yesterday"',
    'type = "TYPE_USAGE" OR type = "TYPE_PLAYER_TOP_UP"',
    'type = "TYPE_USAGE" AND type = "TYPE_USAGE"',
    "amount < 0",
  ])("refuses the filter %s: INVALID_ARGUMENT", async (filter) => {
    await expect(list(filter)).rejects.toMatchObject({ code: Code.InvalidArgument });
  });

  it("refuses a page token issued for another filter", async () => {
    const page = await list("", 1);
    await expect(list('type = "TYPE_USAGE"', 1, page.nextPageToken)).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("is NOT_FOUND for an admin (ledgers travel with billing) and reads over REST", async () => {
    const admin = server.client(BillingService, studio.tokens.ADMIN).listLedgerEntries({ parent });
    await expect(admin).rejects.toMatchObject({ code: Code.NotFound });
    const filter = encodeURIComponent('type = "TYPE_DEVELOPER_TOP_UP"');
    const res = await server.rest("GET", `/v1/${parent}/ledgerEntries?filter=${filter}`, studio.tokens.OWNER);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ledgerEntries: [{ type: "TYPE_DEVELOPER_TOP_UP", amount: { currencyCode: "USD", units: "10", nanos: 0 } }],
      nextPageToken: "",
    });
  });
});
