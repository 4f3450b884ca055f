import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListProjectsRequest,
  type ListProjectsResponse,
  ListProjectsResponseSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listProjects } from "../../store/projects.js";
import { listById } from "../list-page.js";
import { authorizeParent } from "../management-access.js";
import { toProject } from "./hosting-mapper.js";

/** ListProjects: the account's projects, campaign projects included. */
export function createListProjects(deps: ServiceDeps) {
  return async (request: ListProjectsRequest, ctx: HandlerContext): Promise<ListProjectsResponse> => {
    const accountId = authorizeParent(ctx, "project.projects.list", request.parent);
    const page = await listById(deps, request, {
      scope: `projects:${accountId}`,
      load: ({ after, take }) => listProjects(deps.db, { accountId, afterId: after, take }),
    });
    return create(ListProjectsResponseSchema, {
      projects: page.items.map(toProject),
      nextPageToken: page.nextPageToken,
    });
  };
}
