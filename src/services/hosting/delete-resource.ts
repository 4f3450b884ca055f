import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteResourceRequest } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { projectExists } from "../../store/projects.js";
import { deleteResource } from "../../store/resources.js";
import { notFoundMessage, readName } from "../management-access.js";
import { authorize } from "../principal.js";

/** DeleteResource: its usage so far is charged first, then it is gone. */
export function createDeleteResource(deps: ServiceDeps) {
  return async (request: DeleteResourceRequest, ctx: HandlerContext): Promise<Empty> => {
    const name = readName(resources.resource, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "project.resources.delete", name.accountId, message);
    const owned = await projectExists(deps.db, name.accountId, name.projectId);
    const deleted =
      owned &&
      (await deleteResource(deps.db, { projectId: name.projectId, resourceId: name.resourceId, now: deps.now() }));
    if (!deleted) throw notFound(message);
    return create(EmptySchema);
  };
}
