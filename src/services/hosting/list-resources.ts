import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListResourcesRequest,
  type ListResourcesResponse,
  ListResourcesResponseSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { failingRegions, listResources } from "../../store/resources.js";
import { listById } from "../list-page.js";
import { toResource } from "./hosting-mapper.js";
import { loadProject } from "./project-access.js";

/**
 * ListResources: a project's resources in every region that can be listed; the others are
 * named in `unreachable` (AIP-217), never silently left out.
 */
export function createListResources(deps: ServiceDeps) {
  return async (request: ListResourcesRequest, ctx: HandlerContext): Promise<ListResourcesResponse> => {
    const project = await loadProject(deps, {
      ctx,
      permission: "project.resources.list",
      text: request.parent,
      field: "parent",
    });
    const unreachable = await failingRegions(deps.db);
    const page = await listById(deps, request, {
      scope: `resources:${project.id}`,
      load: ({ after, take }) =>
        listResources(deps.db, { projectId: project.id, skipRegions: unreachable, afterId: after, take }),
    });
    return create(ListResourcesResponseSchema, {
      resources: page.items.map((row) => toResource(project.accountId, row)),
      nextPageToken: page.nextPageToken,
      unreachable,
    });
  };
}
