import type { CampaignState } from "../domain/availability.js";
import type { DbClient } from "./db-client.js";

// The operator's review queue and decisions (services/operator/review-decisions.ts).

export async function findCampaignState(
  db: DbClient,
  accountId: string,
  id: string,
): Promise<CampaignState | undefined> {
  const row = await db.campaign.findFirst({ where: { id, accountId }, select: { state: true } });
  return row?.state;
}

export interface CampaignMove {
  accountId: string;
  id: string;
  from: CampaignState;
  to: CampaignState;
  explanation: string;
  now: Date;
}

/** Moves a campaign from `from` to `to` only if it is still in `from`; whether it moved. */
export async function moveCampaign(db: DbClient, change: CampaignMove): Promise<boolean> {
  const { count } = await db.campaign.updateMany({
    where: { id: change.id, accountId: change.accountId, state: change.from },
    data: { state: change.to, explanation: change.explanation, version: { increment: 1 }, updateTime: change.now },
  });
  return count > 0;
}
