import type { Prisma } from "../../gen/prisma/client.js";
import type { TransferMode } from "../../gen/prisma/enums.js";
import type { DbClient } from "./db-client.js";
import type { Db } from "./open-database.js";

// Transfers and their items (spec 3.3, 4.6): the state a transfer survives a restart with.
// A transfer is worked on by whoever holds its lease (`lease_until`): the StartTransfer call
// for MODE_CONVERT, the mover job for MODE_MOVE, or the mover after a call that died.

const include = {
  items: { orderBy: { position: "asc" } },
  campaign: { select: { accountId: true } },
} satisfies Prisma.TransferInclude;

type Loaded = Prisma.TransferGetPayload<{ include: typeof include }>;

/** A transfer with its items in the studio's order, and the account of its campaign. */
export type TransferRecord = Omit<Loaded, "campaign"> & { accountId: string };

function toRecord({ campaign, ...row }: Loaded): TransferRecord {
  return { ...row, accountId: campaign.accountId };
}

export async function findTransfer(db: DbClient, transferId: string): Promise<TransferRecord | undefined> {
  const row = await db.transfer.findUnique({ where: { id: transferId }, include });
  return row ? toRecord(row) : undefined;
}

/** Transfers of an account's campaigns (optionally one campaign), newest first, keyed by (create_time, id). */
export async function listTransfers(
  db: DbClient,
  options: { accountId: string; campaignId: string | undefined; after: readonly string[] | undefined; take: number },
): Promise<TransferRecord[]> {
  const [time, id] = options.after ?? [];
  const createTime = new Date(time ?? 0);
  const rows = await db.transfer.findMany({
    where: {
      campaign: { accountId: options.accountId },
      ...(options.campaignId === undefined ? {} : { campaignId: options.campaignId }),
      ...(options.after === undefined
        ? {}
        : { OR: [{ createTime: { lt: createTime } }, { createTime, id: { lt: id ?? "" } }] }),
    },
    orderBy: [{ createTime: "desc" }, { id: "desc" }],
    take: options.take,
    include,
  });
  return rows.map(toRecord);
}

/** `leaseUntil`: held by the caller from the start (MODE_CONVERT works within the call). */
export interface NewTransfer
  extends Pick<
    Loaded,
    "id" | "campaignId" | "sourceProjectId" | "mode" | "acknowledgeWarnings" | "requestId" | "leaseUntil"
  > {
  resourceIds: readonly string[];
  now: Date;
}

export type TransferStart =
  | { kind: "created"; transfer: TransferRecord }
  | { kind: "existing"; transfer: TransferRecord }
  | { kind: "alreadyTransferred" }
  | { kind: "running"; transferId: string }
  | { kind: "absent" };

/**
 * Records a transfer unless the campaign is already ready or one is under way; a repeated
 * request id gets the transfer it started. The campaign row is locked first, so two starts
 * for one campaign are decided one after the other.
 */
export function beginTransfer(db: Db, start: NewTransfer): Promise<TransferStart> {
  const { resourceIds, now, ...fields } = start;
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ ready: boolean }[]>`
      SELECT ready_time IS NOT NULL AS ready FROM campaigns WHERE id = ${start.campaignId} FOR UPDATE`;
    if (!locked[0]) return { kind: "absent" };
    if (start.requestId !== null) {
      const repeat = await tx.transfer.findUnique({
        where: { campaignId_requestId: { campaignId: start.campaignId, requestId: start.requestId } },
        include,
      });
      if (repeat) return { kind: "existing", transfer: toRecord(repeat) };
    }
    if (locked[0].ready) return { kind: "alreadyTransferred" };
    const running = await tx.transfer.findFirst({
      where: { campaignId: start.campaignId, state: { in: ["RUNNING", "AWAITING_ACKNOWLEDGEMENT"] } },
      select: { id: true },
    });
    if (running) return { kind: "running", transferId: running.id };
    const created = await tx.transfer.create({
      data: {
        ...fields,
        createTime: now,
        items: { create: resourceIds.map((resourceId, position) => ({ resourceId, position })) },
      },
      include,
    });
    return { kind: "created", transfer: toRecord(created) };
  });
}

export interface TransferTarget {
  id: string;
  sourceProjectId: string;
  mode: TransferMode;
  /** The campaign's project: where the items go. */
  targetProjectId: string;
}

export async function findTransferTarget(db: DbClient, transferId: string): Promise<TransferTarget | undefined> {
  const row = await db.transfer.findUnique({
    where: { id: transferId },
    select: { id: true, sourceProjectId: true, mode: true, campaign: { select: { projectId: true } } },
  });
  if (!row) return undefined;
  return { id: row.id, sourceProjectId: row.sourceProjectId, mode: row.mode, targetProjectId: row.campaign.projectId };
}

/** Whether the game is in the campaign's project already (campaigns.ready_time set). */
export async function campaignIsReady(db: DbClient, campaignId: string): Promise<boolean> {
  const row = await db.campaign.findUnique({ where: { id: campaignId }, select: { readyTime: true } });
  return row?.readyTime != null;
}

/** The transfer a request id started for this campaign (AIP-155), if any. */
export async function findTransferByRequest(
  db: DbClient,
  campaignId: string,
  requestId: string,
): Promise<TransferRecord | undefined> {
  const row = await db.transfer.findUnique({ where: { campaignId_requestId: { campaignId, requestId } }, include });
  return row ? toRecord(row) : undefined;
}
