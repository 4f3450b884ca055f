import type { ServiceImpl } from "@connectrpc/connect";
import type { HostingService } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { createCreateGame } from "./create-game.js";
import { createCreateProject } from "./create-project.js";
import { createCreateResource } from "./create-resource.js";
import { createDeleteResource } from "./delete-resource.js";
import { createGetGame } from "./get-game.js";
import { createGetProject } from "./get-project.js";
import { createGetResource } from "./get-resource.js";
import { createListGames } from "./list-games.js";
import { createListProjects } from "./list-projects.js";
import { createListResources } from "./list-resources.js";

/** encore.hosting.v1.HostingService: the embedded host's games, projects and resources. */
export function createHostingService(deps: ServiceDeps): ServiceImpl<typeof HostingService> {
  return {
    createGame: createCreateGame(deps),
    getGame: createGetGame(deps),
    listGames: createListGames(deps),
    createProject: createCreateProject(deps),
    getProject: createGetProject(deps),
    listProjects: createListProjects(deps),
    createResource: createCreateResource(deps),
    getResource: createGetResource(deps),
    listResources: createListResources(deps),
    deleteResource: createDeleteResource(deps),
  };
}
