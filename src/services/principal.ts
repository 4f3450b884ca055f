import type { HandlerContext } from "@connectrpc/connect";
import { kPrincipal, type Principal } from "../core/context-keys.js";
import { type Permission, roleHolds } from "../domain/permissions.js";
import { notFound, unauthenticated } from "../errors/status.js";

/** The caller, or UNAUTHENTICATED when the call carried no valid credential. */
export function requirePrincipal(ctx: HandlerContext): Principal {
  const principal = ctx.values.get(kPrincipal);
  if (!principal) throw unauthenticated();
  return principal;
}

/**
 * Allows the call when the caller is a member of `accountId` whose role holds `permission`.
 * Otherwise NOT_FOUND, worded exactly as for a resource that does not exist, so nobody
 * learns which resources exist (spec 5.3).
 */
export function authorize(
  ctx: HandlerContext,
  permission: Permission,
  accountId: string,
  notFoundMessage: string,
): Principal {
  const principal = requirePrincipal(ctx);
  if (principal.kind === "operator") throw notFound(notFoundMessage);
  if (principal.accountId !== accountId || !roleHolds(principal.role, permission)) throw notFound(notFoundMessage);
  return principal;
}

/**
 * Allows only the operator (the operator token). The authenticate interceptor already admits
 * nothing else to OperatorService; every operator handler checks again so that a wiring
 * mistake cannot hand an account's key the operator's powers.
 */
export function requireOperator(ctx: HandlerContext): void {
  if (requirePrincipal(ctx).kind !== "operator") throw unauthenticated();
}
