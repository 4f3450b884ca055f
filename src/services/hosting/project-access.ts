import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../../core/deps.js";
import type { Permission } from "../../domain/permissions.js";
import { resources } from "../../domain/resource-names.js";
import { findProject, type ProjectRow } from "../../store/projects.js";
import { authorizeName, loadAuthorized } from "../management-access.js";

/** The project `text` (the request's `field`) names, when the caller holds `permission` in its account; else NOT_FOUND (spec 5.3). */
export function loadProject(
  deps: ServiceDeps,
  ctx: HandlerContext,
  permission: Permission,
  text: string,
  field: "name" | "parent",
): Promise<ProjectRow> {
  const project = authorizeName(ctx, permission, resources.project, text, { field });
  return loadAuthorized(project, (n) => findProject(deps.db, n.accountId, n.projectId));
}
