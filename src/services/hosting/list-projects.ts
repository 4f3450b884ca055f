import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListProjectsRequest,
  type ListProjectsResponse,
  ListProjectsResponseSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listProjects } from "../../store/projects.js";
import { listAccountPage } from "../list-page.js";
import { toProject } from "./hosting-mapper.js";

/** ListProjects: the account's projects, campaign projects included. */
export function createListProjects(deps: ServiceDeps) {
  return async (request: ListProjectsRequest, ctx: HandlerContext): Promise<ListProjectsResponse> => {
    const page = await listAccountPage(deps, ctx, request, {
      permission: "project.projects.list",
      scope: "projects",
      load: listProjects,
    });
    return create(ListProjectsResponseSchema, {
      projects: page.items.map(toProject),
      nextPageToken: page.nextPageToken,
    });
  };
}
