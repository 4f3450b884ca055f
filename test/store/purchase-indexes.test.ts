import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listLinkReversals } from "../../src/store/link-reversals.js";
import { deleteLinkUnlessUsed } from "../../src/store/links.js";
import { deleteOrDeactivateOffer } from "../../src/store/offers.js";
import { seedCampaign, seedOffer } from "../support/seed.js";
import { seedPurchase } from "../support/seed-purchases.js";
import { type SentStatement, watchStatements } from "../support/sent-statements.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

// The statements that ask for purchases by link or by offer find them through an index, not by
// reading every purchase: the operator's link reversals (each link's credits since a time), a
// link's deletion (LINK_IN_USE) and an offer's (ever bought?). Each statement an operation sent
// about purchases is planned again with sequential scans switched off (`enable_seqscan`), and
// each read of purchases in the plan must find its rows by an index condition on the column
// asked for: without such an index PostgreSQL still reads every purchase, by a sequential scan
// or by scanning another index whole. (The foreign keys' checks when a link or an offer is
// deleted ask PostgreSQL the same question and use the same indexes.)

let db: TestDatabase;
let sent: SentStatement[] = [];
let stopWatching: () => void;

beforeAll(async () => {
  db = await createTestDatabase();
  stopWatching = watchStatements((statement) => {
    if (/\bpurchases\b/.test(statement.text)) sent.push(statement);
  });
});
afterAll(async () => {
  stopWatching();
  await db.drop();
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Plans?: PlanNode[];
}

/** The plan of each statement sent, with sequential scans switched off. */
async function plansOf(statements: SentStatement[]): Promise<PlanNode[]> {
  if (db.target.kind !== "postgres") throw new Error("PostgreSQL only");
  const client = new pg.Client({ connectionString: db.target.url });
  await client.connect();
  try {
    await client.query("SET enable_seqscan = off");
    const plans: PlanNode[] = [];
    for (const { text, values } of statements) {
      const explained = await client.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
      plans.push(explained.rows[0]["QUERY PLAN"][0].Plan);
    }
    return plans;
  } finally {
    await client.end();
  }
}

/**
 * How each read of purchases in the plans finds its rows: the condition of its index, or
 * "every row" for a sequential scan or an index scanned whole (which, with sequential scans
 * off, is what the planner picks when no index leads with the column asked for).
 */
function purchaseReads(plans: PlanNode[]): string[] {
  const reads: string[] = [];
  const visit = (node: PlanNode) => {
    if (node["Relation Name"] === "purchases" && node["Node Type"].endsWith("Scan")) {
      reads.push(node["Index Cond"] ?? node["Recheck Cond"] ?? `every row (${node["Node Type"]})`);
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  for (const plan of plans) visit(plan);
  return reads;
}

/** A campaign, its offer and a purchase of it; the statements sent from here on are recorded. */
async function shopWithPurchase(fields: Parameters<typeof seedPurchase>[3] = {}) {
  const shop = await seedCampaign(db.database.prisma);
  const offerId = await seedOffer(db.database.prisma, shop.campaignId);
  await seedPurchase(db.database.prisma, shop, offerId, fields);
  sent = [];
  return { ...shop, offerId };
}

/** Every read of purchases the recorded statements make finds its rows by `column`'s index. */
async function expectEveryReadBy(column: "link_id" | "offer_id") {
  // Taken before planning, which is itself watched.
  const statements = sent;
  sent = [];
  const reads = purchaseReads(await plansOf(statements));
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) expect(read).toMatch(new RegExp(`\\b${column} = `));
}

describe.runIf(process.env.TEST_DATABASE_URL)("purchases found by link or offer through an index", () => {
  it("the operator's link reversals", async () => {
    await shopWithPurchase({ state: "CREDITED", creditTime: new Date() });

    await listLinkReversals(db.database.prisma, { take: 10, after: undefined, since: new Date(0) });

    await expectEveryReadBy("link_id");
  });

  it("a link's deletion, refused while a purchase was made through it", async () => {
    const shop = await shopWithPurchase();

    const deleted = await deleteLinkUnlessUsed(db.database.prisma, {
      accountId: shop.accountId,
      linkId: shop.linkId,
      expectedVersion: undefined,
    });

    expect(deleted).toBe("inUse");
    await expectEveryReadBy("link_id");
  });

  it("an offer's deletion, a deactivation once it was bought", async () => {
    const shop = await shopWithPurchase();

    const deleted = await deleteOrDeactivateOffer(db.database.prisma, {
      campaignId: shop.campaignId,
      offerId: shop.offerId,
      expectedVersion: undefined,
      now: new Date(),
    });

    expect(deleted).toBe("deactivated");
    await expectEveryReadBy("offer_id");
  });
});
