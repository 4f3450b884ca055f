import type { HandlerContext } from "@connectrpc/connect";
import type { Permission } from "../../domain/permissions.js";
import { findProject, type ProjectRow } from "../../store/projects.js";
import { loadAuthorized, readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { parseProjectName } from "./hosting-names.js";

export const PROJECT_SHAPE = "accounts/{account}/projects/{project}";

/** The project a request names, when the caller holds `permission` in its account; else NOT_FOUND (spec 5.3). */
export function loadProject(
  deps: ServiceDeps,
  options: { ctx: HandlerContext; permission: Permission; text: string; field: string },
): Promise<ProjectRow> {
  const name = readName(parseProjectName(options.text), options.field, PROJECT_SHAPE);
  return loadAuthorized({ ctx: options.ctx, permission: options.permission, name, text: options.text }, (n) =>
    findProject(deps.db, n.accountId, n.projectId),
  );
}
