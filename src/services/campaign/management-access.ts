import type { HandlerContext } from "@connectrpc/connect";
import type { Permission } from "../../domain/permissions.js";
import type { NameResult } from "../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import { authorize } from "../principal.js";

// Every management method starts the same way (spec 5.3): the name is read strictly
// (malformed: INVALID_ARGUMENT), the caller's permission in the name's account is checked,
// and a missing resource is answered with the very message a missing permission gets.

/** The parsed name, or INVALID_ARGUMENT naming the field and the shape it must have. */
export function readName<T>(result: NameResult<T>, field: string, shape: string): T {
  if (!result.ok) throw invalidArgument(`"${field}" must be ${shape}.`);
  return result.value;
}

export function notFoundMessage(name: string): string {
  return `${name} was not found.`;
}

export interface Access<T extends { accountId: string }> {
  ctx: HandlerContext;
  permission: Permission;
  /** The parsed name. */
  name: T;
  /** The name as the caller wrote it, for the message. */
  text: string;
}

/**
 * Authorizes, then loads the resource; NOT_FOUND in both failures with the same words, so
 * nobody learns which resources exist.
 */
export async function loadAuthorized<T extends { accountId: string }, R>(
  access: Access<T>,
  load: (name: T) => Promise<R | null | undefined>,
): Promise<R> {
  const message = notFoundMessage(access.text);
  authorize(access.ctx, access.permission, access.name.accountId, message);
  const row = await load(access.name);
  if (row === null || row === undefined) throw notFound(message);
  return row;
}
