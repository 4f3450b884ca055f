import type { ServiceImpl } from "@connectrpc/connect";
import type { HostingService } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { insertProject, listProjects } from "../../store/projects.js";
import { listInAccount } from "../list-page.js";
import { createNamed } from "./create-named.js";
import { toProject } from "./hosting-mapper.js";
import { loadProject } from "./project-access.js";

/** Projects: what the host bills, campaign projects (top-up-only, with their balance) included. */
export function createProjectMethods(deps: ServiceDeps): ProjectMethods {
  return {
    /**
     * CreateProject: an ordinary project, paid by the account's payment method. Top-up-only
     * projects are made only with their campaign (CreateCampaign).
     */
    createProject: createNamed(deps, {
      field: "project",
      permission: "project.projects.create",
      insert: insertProject,
      toItem: toProject,
    }),

    async getProject(request, ctx) {
      return toProject(await loadProject(deps, ctx, "project.projects.get", request.name, "name"));
    },

    listProjects: listInAccount(deps, {
      field: "projects",
      permission: "project.projects.list",
      load: listProjects,
      toItem: toProject,
    }),
  };
}

type ProjectMethods = Pick<ServiceImpl<typeof HostingService>, "createProject" | "getProject" | "listProjects">;
