import type { ServiceImpl } from "@connectrpc/connect";
import type { HostingService } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { resources } from "../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import { findGame } from "../../store/game-records.js";
import { projectExists } from "../../store/projects.js";
import { deleteResource, failingRegions, findResource, insertResource, listResources } from "../../store/resources.js";
import { listById } from "../list-page.js";
import { authorizeName, loadAuthorized } from "../management-access.js";
import { toResource } from "./hosting-mapper.js";
import { loadProject } from "./project-access.js";
import { readResourceInput } from "./resource-input.js";

/** A project's resources: servers, disks and addresses, metered while running. */
export function createResourceMethods(deps: ServiceDeps): ResourceMethods {
  return {
    /** CreateResource: a server, disk or address in a project; metered from now while running. */
    async createResource(request, ctx) {
      const project = await loadProject(deps, ctx, "project.resources.create", request.parent, "parent");
      const input = readResourceInput(request.resource, project.accountId);
      if (input.gameId !== null && !(await findGame(deps.db, project.accountId, input.gameId))) {
        throw invalidArgument('"resource.game" names no game of this account.');
      }
      const now = deps.now();
      const row = await insertResource(deps.db, { ...input, id: newId(now), projectId: project.id, createTime: now });
      return toResource(project.accountId, row);
    },

    async getResource(request, ctx) {
      const resource = authorizeName(ctx, "project.resources.get", resources.resource, request.name);
      const row = await loadAuthorized(resource, async (n) =>
        (await projectExists(deps.db, n.accountId, n.projectId))
          ? findResource(deps.db, n.projectId, n.resourceId)
          : null,
      );
      return toResource(resource.name.accountId, row);
    },

    /**
     * ListResources: a project's resources in every region that can be listed; the others are
     * named in `unreachable` (AIP-217), never silently left out.
     */
    async listResources(request, ctx) {
      const project = await loadProject(deps, ctx, "project.resources.list", request.parent, "parent");
      const unreachable = await failingRegions(deps.db);
      const page = await listById(deps, request, {
        scope: `resources:${project.id}`,
        load: (page) => listResources(deps.db, { projectId: project.id, skipRegions: unreachable, page }),
      });
      return {
        resources: page.items.map((row) => toResource(project.accountId, row)),
        nextPageToken: page.nextPageToken,
        unreachable,
      };
    },

    /** DeleteResource: its usage so far is charged first, then it is gone. */
    async deleteResource(request, ctx) {
      const { name, message } = authorizeName(ctx, "project.resources.delete", resources.resource, request.name);
      const owned = await projectExists(deps.db, name.accountId, name.projectId);
      const deleted =
        owned &&
        (await deleteResource(deps.db, { projectId: name.projectId, resourceId: name.resourceId, now: deps.now() }));
      if (!deleted) throw notFound(message);
      return {};
    },
  };
}

type ResourceMethods = Pick<
  ServiceImpl<typeof HostingService>,
  "createResource" | "getResource" | "listResources" | "deleteResource"
>;
