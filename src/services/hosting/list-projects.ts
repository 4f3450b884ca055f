import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListProjectsRequest,
  type ListProjectsResponse,
  ListProjectsResponseSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { listProjects } from "../../store/projects.js";
import { notFoundMessage, readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { type PageTokens, readPageSize } from "../page-token.js";
import { authorize } from "../principal.js";
import { toProject } from "./hosting-mapper.js";

/** ListProjects: the account's projects, campaign projects included. */
export function createListProjects(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListProjectsRequest, ctx: HandlerContext): Promise<ListProjectsResponse> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", "accounts/{account}");
    authorize(ctx, "project.projects.list", accountId, notFoundMessage(request.parent));
    const size = readPageSize(request.pageSize);
    const scope = `projects:${accountId}`;
    const afterId = tokens.decode(scope, request.pageToken)?.[0];
    const rows = await listProjects(deps.db, { accountId, afterId, take: size + 1 });
    const page = tokens.page({ scope, rows, size, cursorOf: (row) => [row.id] });
    return create(ListProjectsResponseSchema, {
      projects: page.items.map(toProject),
      nextPageToken: page.nextPageToken,
    });
  };
}
