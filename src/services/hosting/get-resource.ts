import type { HandlerContext } from "@connectrpc/connect";
import type { GetResourceRequest, Resource } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { projectExists } from "../../store/projects.js";
import { findResource } from "../../store/resources.js";
import { authorizeName, loadAuthorized } from "../management-access.js";
import { toResource } from "./hosting-mapper.js";

/** GetResource. */
export function createGetResource(deps: ServiceDeps) {
  return async (request: GetResourceRequest, ctx: HandlerContext): Promise<Resource> => {
    const resource = authorizeName(ctx, "project.resources.get", resources.resource, request.name);
    const row = await loadAuthorized(resource, async (n) =>
      (await projectExists(deps.db, n.accountId, n.projectId))
        ? findResource(deps.db, n.projectId, n.resourceId)
        : null,
    );
    return toResource(resource.name.accountId, row);
  };
}
