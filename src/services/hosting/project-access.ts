import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../../core/deps.js";
import type { Permission } from "../../domain/permissions.js";
import { resources } from "../../domain/resource-names.js";
import { findProject, type ProjectRow } from "../../store/projects.js";
import { loadAuthorized, readName } from "../management-access.js";

/** The project a request names, when the caller holds `permission` in its account; else NOT_FOUND (spec 5.3). */
export function loadProject(
  deps: ServiceDeps,
  options: { ctx: HandlerContext; permission: Permission; text: string; field: string },
): Promise<ProjectRow> {
  const name = readName(resources.project, options.text, options.field);
  return loadAuthorized({ ctx: options.ctx, permission: options.permission, name, text: options.text }, (n) =>
    findProject(deps.db, n.accountId, n.projectId),
  );
}
