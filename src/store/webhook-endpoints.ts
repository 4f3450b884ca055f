import type { WebhookEndpoint } from "../../gen/prisma/client.js";
import type { WebhookEndpointState } from "../../gen/prisma/enums.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";
import type { Db } from "./open-database.js";

// Webhook endpoints (docs/webhooks.md). Their signing secrets are sealed by the caller (secret-box.ts):
// the store keeps the boxes and never sees a secret.

/** What is read of an endpoint: not its secrets' boxes, nor the delivery job's bookkeeping. */
const hidden = {
  secretEncrypted: true,
  previousSecretEncrypted: true,
  backoffUntil: true,
  backoffLevel: true,
  redeliverWindowStart: true,
  redeliverCount: true,
  version: true,
} as const;

export type WebhookEndpointRow = Omit<WebhookEndpoint, keyof typeof hidden>;

export interface NewWebhookEndpoint
  extends Pick<WebhookEndpoint, "id" | "accountId" | "url" | "description" | "eventTypes" | "secretEncrypted"> {
  now: Date;
}

export type EndpointInsert = { kind: "created"; row: WebhookEndpointRow } | { kind: "limitReached" };

/**
 * Creates the endpoint unless the account already has `limit` (docs/webhooks.md "Fairness").
 * The account's row is locked first, so creations racing each other are counted one after
 * another; `FOR NO KEY UPDATE` leaves rows that merely reference the account unblocked.
 */
export function insertWebhookEndpoint(
  db: Db,
  endpoint: NewWebhookEndpoint & { limit: number },
): Promise<EndpointInsert> {
  const { now, limit, ...fields } = endpoint;
  return db.$transaction(async (tx): Promise<EndpointInsert> => {
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${fields.accountId} FOR NO KEY UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { accountId: fields.accountId } })) >= limit) {
      return { kind: "limitReached" };
    }
    const row = await tx.webhookEndpoint.create({
      data: { ...fields, createTime: now, updateTime: now },
      omit: hidden,
    });
    return { kind: "created", row };
  });
}

export function findWebhookEndpoint(db: DbClient, accountId: string, id: string): Promise<WebhookEndpointRow | null> {
  return db.webhookEndpoint.findFirst({ where: { id, accountId }, omit: hidden });
}

export function listWebhookEndpoints(db: DbClient, accountId: string, page: IdPage): Promise<WebhookEndpointRow[]> {
  return db.webhookEndpoint.findMany({ ...idPageQuery({ accountId }, page), omit: hidden });
}

export interface WebhookEndpointChanges {
  url?: string;
  eventTypes?: string[];
  description?: string;
  /** ACTIVE enables the endpoint again (its failure run and back-off forgotten); DISABLED stops it. */
  state?: WebhookEndpointState;
}

/** Writes the changes; null when the endpoint does not exist. */
export async function updateWebhookEndpoint(
  db: DbClient,
  options: { accountId: string; id: string; changes: WebhookEndpointChanges; now: Date },
): Promise<WebhookEndpointRow | null> {
  const { accountId, id, changes, now } = options;
  const stateColumns =
    changes.state === "ACTIVE"
      ? {
          state: "ACTIVE" as const,
          disabledReason: "",
          disableTime: null,
          failingSince: null,
          backoffUntil: null,
          backoffLevel: 0,
        }
      : changes.state === "DISABLED"
        ? { state: "DISABLED" as const, disabledReason: "Disabled by the account.", disableTime: now }
        : {};
  const { state: _state, ...fields } = changes;
  const written = await db.webhookEndpoint.updateMany({
    where: { id, accountId },
    data: { ...fields, ...stateColumns, version: { increment: 1 }, updateTime: now },
  });
  if (written.count === 0) return null;
  // A disabled endpoint is sent nothing more, not even what was waiting for it.
  if (changes.state === "DISABLED") {
    await db.webhookDelivery.updateMany({
      where: { endpointId: id, state: "PENDING" },
      data: { state: "FAILED", nextAttemptTime: null, leaseUntil: null },
    });
  }
  return findWebhookEndpoint(db, accountId, id);
}

/** Deletes the endpoint and its deliveries (cascade); whether it existed. */
export async function deleteWebhookEndpoint(db: DbClient, accountId: string, id: string): Promise<boolean> {
  const deleted = await db.webhookEndpoint.deleteMany({ where: { id, accountId } });
  return deleted.count === 1;
}

/**
 * Replaces the signing secret; the current one becomes the previous, signing beside the new
 * until `previousExpireTime` (none when the overlap is zero).
 */
export async function rotateWebhookSecret(
  db: DbClient,
  options: {
    accountId: string;
    id: string;
    secretEncrypted: Uint8Array<ArrayBuffer>;
    previousExpireTime: Date | null;
    now: Date;
  },
): Promise<WebhookEndpointRow | null> {
  const { accountId, id, now } = options;
  const current = await db.webhookEndpoint.findFirst({ where: { id, accountId }, select: { secretEncrypted: true } });
  if (!current) return null;
  await db.webhookEndpoint.update({
    where: { id },
    data: {
      secretEncrypted: options.secretEncrypted,
      previousSecretEncrypted: options.previousExpireTime === null ? null : current.secretEncrypted,
      previousSecretExpireTime: options.previousExpireTime,
      version: { increment: 1 },
      updateTime: now,
    },
  });
  return findWebhookEndpoint(db, accountId, id);
}
