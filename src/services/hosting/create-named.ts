import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import type { Permission } from "../../domain/permissions.js";
import type { Db } from "../../store/open-database.js";
import { readDisplayName } from "../display-name.js";
import { authorizeParent } from "../management-access.js";

export interface NamedCreate<Field extends string, Row, Item> {
  permission: Permission;
  /** The request's resource field, e.g. "game"; only its display name is read, and it is required. */
  field: Field;
  insert(db: Db, row: { id: string; accountId: string; displayName: string; createTime: Date }): Promise<Row>;
  toItem(row: Row): Item;
}

/** A Create method of an account's resource that takes nothing but a display name (games, ordinary projects). */
export function createNamed<Field extends string, Row, Item>(
  deps: Pick<ServiceDeps, "db" | "now">,
  create: NamedCreate<Field, Row, Item>,
) {
  return async (
    request: { parent: string } & Partial<Record<Field, { displayName: string }>>,
    ctx: HandlerContext,
  ): Promise<Item> => {
    const accountId = authorizeParent(ctx, create.permission, request.parent);
    const input: { displayName: string } | undefined = request[create.field];
    const displayName = readDisplayName(input?.displayName.trim() ?? "", `${create.field}.displayName`, {
      required: true,
    });
    const now = deps.now();
    return create.toItem(await create.insert(deps.db, { id: newId(now), accountId, displayName, createTime: now }));
  };
}
