import type { HandlerContext } from "@connectrpc/connect";
import type { GetProjectRequest, Project } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { toProject } from "./hosting-mapper.js";
import { loadProject } from "./project-access.js";

/** GetProject, campaign projects included (with their balance). */
export function createGetProject(deps: ServiceDeps) {
  return async (request: GetProjectRequest, ctx: HandlerContext): Promise<Project> =>
    toProject(await loadProject(deps, ctx, "project.projects.get", request.name, "name"));
}
