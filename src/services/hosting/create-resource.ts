import type { HandlerContext } from "@connectrpc/connect";
import type { CreateResourceRequest, Resource } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { invalidArgument } from "../../errors/status.js";
import { findGame } from "../../store/game-records.js";
import { insertResource } from "../../store/resources.js";
import { toResource } from "./hosting-mapper.js";
import { loadProject } from "./project-access.js";
import { readResourceInput } from "./resource-input.js";

/** CreateResource: a server, disk or address in a project; metered from now while running. */
export function createCreateResource(deps: ServiceDeps) {
  return async (request: CreateResourceRequest, ctx: HandlerContext): Promise<Resource> => {
    const project = await loadProject(deps, {
      ctx,
      permission: "project.resources.create",
      text: request.parent,
      field: "parent",
    });
    const input = readResourceInput(request.resource, project.accountId);
    if (input.gameId !== null && !(await findGame(deps.db, project.accountId, input.gameId))) {
      throw invalidArgument('"resource.game" names no game of this account.');
    }
    const now = deps.now();
    const row = await insertResource(deps.db, { ...input, id: newId(now), projectId: project.id, createTime: now });
    return toResource(project.accountId, row);
  };
}
