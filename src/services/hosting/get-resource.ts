import type { HandlerContext } from "@connectrpc/connect";
import type { GetResourceRequest, Resource } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { projectExists } from "../../store/projects.js";
import { findResource } from "../../store/resources.js";
import { loadAuthorized, readName } from "../management-access.js";
import { toResource } from "./hosting-mapper.js";

/** GetResource. */
export function createGetResource(deps: ServiceDeps) {
  return async (request: GetResourceRequest, ctx: HandlerContext): Promise<Resource> => {
    const name = readName(resources.resource, request.name, "name");
    const row = await loadAuthorized(
      { ctx, permission: "project.resources.get", name, text: request.name },
      async (n) => {
        const owned = await projectExists(deps.db, n.accountId, n.projectId);
        return owned ? findResource(deps.db, n.projectId, n.resourceId) : null;
      },
    );
    return toResource(name.accountId, row);
  };
}
