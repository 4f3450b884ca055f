import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../core/deps.js";
import type { Permission } from "../domain/permissions.js";
import { type CampaignName, type ResourcePattern, resources } from "../domain/resource-names.js";
import { invalidArgument, notFound } from "../errors/status.js";
import { campaignExists } from "../store/campaigns.js";
import { authorize } from "./principal.js";

// Every management method starts the same way (spec 5.3): the name is read strictly
// (malformed: INVALID_ARGUMENT), the caller's permission in the name's account is checked,
// and a missing resource is answered with the very message a missing permission gets.

/** `text` parsed as a `resource` name, or INVALID_ARGUMENT naming the field and the pattern it must have. */
export function readName<T>(resource: ResourcePattern<T>, text: string, field: string): T {
  const result = resource.parse(text);
  if (!result.ok) throw invalidArgument(resource.mustBe(field));
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

/**
 * A create's or list's `parent` account, which the caller must hold `permission` in; `missing`
 * words the NOT_FOUND (the account service names the account in its own words).
 */
export function authorizeParent(
  ctx: HandlerContext,
  permission: Permission,
  parent: string,
  missing: (name: string) => string = notFoundMessage,
): string {
  const { accountId } = readName(resources.account, parent, "parent");
  authorize(ctx, permission, accountId, missing(parent));
  return accountId;
}

/** A `parent` campaign that exists and the caller holds `permission` on (offers, purchases). */
export function loadParentCampaign(
  deps: Pick<ServiceDeps, "db">,
  ctx: HandlerContext,
  permission: Permission,
  parent: string,
): Promise<CampaignName> {
  const name = readName(resources.campaign, parent, "parent");
  return loadAuthorized({ ctx, permission, name, text: parent }, async (n) =>
    (await campaignExists(deps.db, n.accountId, n.campaignId)) ? n : undefined,
  );
}
