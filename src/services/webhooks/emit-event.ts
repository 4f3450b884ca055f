import { type DescMessage, type MessageShape, toJson } from "@bufbuild/protobuf";
import type { Prisma } from "../../../gen/prisma/client.js";
import { newId } from "../../core/ids.js";
import { WEBHOOK_API_VERSION, type WebhookEventType } from "../../domain/webhook-events.js";
import { insertWebhookEvent } from "../../store/webhook-outbox.js";

// An event is written to the outbox in the transaction of the change it tells of
// (store/webhook-outbox.ts). Its envelope is fixed here, once: every attempt POSTs these bytes.

export interface WebhookEnvelope {
  id: string;
  type: WebhookEventType;
  api_version: string;
  create_time: string;
  account: string;
  data: unknown;
}

/**
 * Writes `type` with `resource` as the API returns it (proto3 JSON: lowerCamelCase names,
 * 64-bit integers and money units as strings, enums by name) in the caller's transaction.
 */
export async function emitWebhookEvent<Desc extends DescMessage>(
  tx: Prisma.TransactionClient,
  event: { accountId: string; type: WebhookEventType; schema: Desc; resource: MessageShape<Desc>; now: Date },
): Promise<string> {
  const id = `evt_${newId(event.now)}`;
  const envelope: WebhookEnvelope = {
    id,
    type: event.type,
    api_version: WEBHOOK_API_VERSION,
    create_time: event.now.toISOString(),
    account: `accounts/${event.accountId}`,
    // As the REST transcoder renders it (src/transcode/render.ts): implicit defaults included.
    data: toJson(event.schema, event.resource, { alwaysEmitImplicit: true }),
  };
  await insertWebhookEvent(tx, {
    id,
    accountId: event.accountId,
    type: event.type,
    payload: JSON.stringify(envelope),
    now: event.now,
  });
  return id;
}
