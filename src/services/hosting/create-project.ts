import type { HandlerContext } from "@connectrpc/connect";
import type { CreateProjectRequest, Project } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { insertProject } from "../../store/projects.js";
import { readDisplayName } from "../display-name.js";
import { authorizeParent } from "../management-access.js";
import { toProject } from "./hosting-mapper.js";

/**
 * CreateProject: an ordinary project, paid by the account's payment method. Top-up-only
 * projects are made only with their campaign (CreateCampaign).
 */
export function createCreateProject(deps: ServiceDeps) {
  return async (request: CreateProjectRequest, ctx: HandlerContext): Promise<Project> => {
    const accountId = authorizeParent(ctx, "project.projects.create", request.parent);
    const displayName = readDisplayName(request.project?.displayName.trim() ?? "", "project.displayName", {
      required: true,
    });
    const now = deps.now();
    return toProject(await insertProject(deps.db, { id: newId(now), accountId, displayName, createTime: now }));
  };
}
