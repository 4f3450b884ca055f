import type { ConnectError, HandlerContext } from "@connectrpc/connect";
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

/** A message field the request must carry, or INVALID_ARGUMENT naming it. */
export function readRequired<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw invalidArgument(`Missing required field "${field}".`);
  return value;
}

export function notFoundMessage(name: string): string {
  return `${name} was not found.`;
}

/** A name the caller may act on: parsed, and the caller authorized in its account. */
export interface Authorized<T> {
  name: T;
  /** The name as the caller wrote it (a refusal's subject). */
  text: string;
  /** The NOT_FOUND words, the same for a missing permission and a missing resource. */
  message: string;
}

/**
 * `text` read as a `resource` name from the request's `field`, then the caller's `permission`
 * in its account checked; `missing` words the NOT_FOUND (the account service names its
 * resources in its own words).
 */
export function authorizeName<T extends { accountId: string }>(
  ctx: HandlerContext,
  permission: Permission,
  resource: ResourcePattern<T>,
  text: string,
  options: { field?: string; missing?: (name: string) => string } = {},
): Authorized<T> {
  const name = readName(resource, text, options.field ?? "name");
  const message = (options.missing ?? notFoundMessage)(text);
  authorize(ctx, permission, name.accountId, message);
  return { name, text, message };
}

/** The authorized resource, loaded; NOT_FOUND in the very words of a missing permission. */
export async function loadAuthorized<T, R>(
  authorized: Authorized<T>,
  load: (name: T) => Promise<R | null | undefined>,
): Promise<R> {
  const row = await load(authorized.name);
  if (row === null || row === undefined) throw notFound(authorized.message);
  return row;
}

/**
 * A guarded write's outcome, once answered: NOT_FOUND when the resource is gone (in the very
 * words of a missing permission), `refusal` for the write's own refusal (a stale etag, the
 * account's last owner).
 */
export function writtenOutcome<Outcome extends { kind: string }>(
  outcome: Outcome,
  target: Authorized<unknown>,
  refusal: () => ConnectError,
): Extract<Outcome, { kind: "written" }> {
  if (outcome.kind === "absent") throw notFound(target.message);
  if (outcome.kind !== "written") throw refusal();
  return outcome as Extract<Outcome, { kind: "written" }>;
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
  return authorizeName(ctx, permission, resources.account, parent, { field: "parent", missing }).name.accountId;
}

/** A `parent` campaign that exists and the caller holds `permission` on (offers, purchases). */
export function loadParentCampaign(
  deps: Pick<ServiceDeps, "db">,
  ctx: HandlerContext,
  permission: Permission,
  parent: string,
): Promise<CampaignName> {
  const campaign = authorizeName(ctx, permission, resources.campaign, parent, { field: "parent" });
  return loadAuthorized(campaign, async (n) =>
    (await campaignExists(deps.db, n.accountId, n.campaignId)) ? n : undefined,
  );
}
