import { Prisma } from "../../../gen/prisma/client.js";
import type { CampaignState } from "../../domain/availability.js";
import { type CampaignRow, findCampaign } from "../../store/campaigns.js";
import { inPageOrder, type Paged, pageKeys } from "../../store/keyset-page.js";
import type { Db } from "../../store/open-database.js";

export { findCampaign };

const withLatestTransfer = {
  transfers: {
    orderBy: [{ createTime: "desc" }, { id: "desc" }],
    take: 1,
    include: { items: { orderBy: { position: "asc" } } },
  },
} satisfies Prisma.CampaignInclude;

/** Campaigns of every account in `state`, oldest first: the operator's review queue. */
export async function listCampaignsInState(
  db: Db,
  options: { state: CampaignState; after: readonly string[] | undefined; take: number },
): Promise<Paged<CampaignRow>[]> {
  const keys = await pageKeys(db, {
    table: "campaigns",
    where: Prisma.sql`state = ${options.state}::"CampaignState"`,
    direction: "oldestFirst",
    after: options.after,
    take: options.take,
  });
  const rows = await db.campaign.findMany({
    where: { id: { in: keys.map((key) => key.id) } },
    include: withLatestTransfer,
  });
  return inPageOrder(keys, rows);
}

export async function findCampaignState(db: Db, accountId: string, id: string): Promise<CampaignState | undefined> {
  const row = await db.campaign.findFirst({ where: { id, accountId }, select: { state: true } });
  return row?.state;
}

/** Moves a campaign from `from` to `to` only if it is still in `from`; whether it moved. */
export async function moveCampaign(
  db: Db,
  change: { accountId: string; id: string; from: CampaignState; to: CampaignState; explanation: string; now: Date },
): Promise<boolean> {
  const { count } = await db.campaign.updateMany({
    where: { id: change.id, accountId: change.accountId, state: change.from },
    data: { state: change.to, explanation: change.explanation, version: { increment: 1 }, updateTime: change.now },
  });
  return count > 0;
}
