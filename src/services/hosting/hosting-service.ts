import type { ServiceImpl } from "@connectrpc/connect";
import type { HostingService } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { createGameMethods } from "./game-methods.js";
import { createProjectMethods } from "./project-methods.js";
import { createResourceMethods } from "./resource-methods.js";

/** encore.hosting.v1.HostingService: the embedded host's games, projects and resources. */
export function createHostingService(deps: ServiceDeps): ServiceImpl<typeof HostingService> {
  return { ...createGameMethods(deps), ...createProjectMethods(deps), ...createResourceMethods(deps) };
}
