import type { HandlerContext } from "@connectrpc/connect";
import type { CreateProjectRequest, Project } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { invalidArgument } from "../../errors/status.js";
import { insertProject } from "../../store/projects.js";
import { notFoundMessage, readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { newId } from "../ids.js";
import { authorize } from "../principal.js";
import { toProject } from "./hosting-mapper.js";

/**
 * CreateProject: an ordinary project, paid by the account's payment method. Top-up-only
 * projects are made only with their campaign (CreateCampaign).
 */
export function createCreateProject(deps: ServiceDeps) {
  return async (request: CreateProjectRequest, ctx: HandlerContext): Promise<Project> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", "accounts/{account}");
    authorize(ctx, "project.projects.create", accountId, notFoundMessage(request.parent));
    const displayName = request.project?.displayName.trim() ?? "";
    if (displayName === "") throw invalidArgument('"project.displayName" is required.');
    const now = deps.now();
    return toProject(await insertProject(deps.db, { id: newId(now), accountId, displayName, createTime: now }));
  };
}
