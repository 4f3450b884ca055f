import type { Prisma, Project } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";

// Projects (encore.hosting.v1 Project): resources and the balance that pays for them. Campaign
// projects are created with their campaign (store/campaigns.ts); these are the account's own.

/** A project, with the campaign whose funding project it is, if any. */
export type ProjectRow = Project & { campaignId: string | null };

const include = { campaign: { select: { id: true } } } satisfies Prisma.ProjectInclude;

function toRow({ campaign, ...row }: Prisma.ProjectGetPayload<{ include: typeof include }>): ProjectRow {
  return { ...row, campaignId: campaign?.id ?? null };
}

export async function insertProject(
  db: DbClient,
  row: { id: string; accountId: string; displayName: string; createTime: Date },
): Promise<ProjectRow> {
  return toRow(await db.project.create({ data: { ...row, topUpOnly: false }, include }));
}

export async function findProject(db: DbClient, accountId: string, projectId: string): Promise<ProjectRow | undefined> {
  const row = await db.project.findFirst({ where: { id: projectId, accountId }, include });
  return row ? toRow(row) : undefined;
}

/** One page of an account's projects in id order, campaign projects included. */
export async function listProjects(db: DbClient, accountId: string, page: IdPage): Promise<ProjectRow[]> {
  const rows = await db.project.findMany({ ...idPageQuery({ accountId }, page), include });
  return rows.map(toRow);
}

/** Whether the account holds the project: a resource is only ever found through its own account. */
export async function projectExists(db: DbClient, accountId: string, projectId: string): Promise<boolean> {
  return (await db.project.count({ where: { id: projectId, accountId } })) > 0;
}
