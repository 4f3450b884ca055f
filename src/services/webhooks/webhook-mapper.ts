import { create } from "@bufbuild/protobuf";
import { durationFromMs, timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type WebhookDelivery,
  WebhookDelivery_State,
  WebhookDeliverySchema,
  type WebhookEndpoint,
  WebhookEndpoint_State,
  WebhookEndpointSchema,
} from "../../../gen/encore/webhook/v1/webhook_service_pb.js";
import { resources } from "../../domain/resource-names.js";
import type { WebhookDeliveryRow } from "../../store/webhook-deliveries.js";
import type { WebhookEndpointRow } from "../../store/webhook-endpoints.js";

// Store states are spelled as the enums' value names, so a state maps by its name.

const optionalTime = (time: Date | null) => (time === null ? undefined : timestampFromDate(time));

/** An endpoint as the API returns it; `signingSecret` only in Create's and Rotate's responses. */
export function toWebhookEndpoint(row: WebhookEndpointRow, signingSecret = ""): WebhookEndpoint {
  return create(WebhookEndpointSchema, {
    name: resources.webhookEndpoint.format({ accountId: row.accountId, endpointId: row.id }),
    url: row.url,
    eventTypes: row.eventTypes,
    description: row.description,
    state: WebhookEndpoint_State[row.state],
    disabledReason: row.disabledReason,
    disableTime: optionalTime(row.disableTime),
    signingSecret,
    previousSecretExpireTime: optionalTime(row.previousSecretExpireTime),
    failingSinceTime: optionalTime(row.failingSince),
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
  });
}

export function toWebhookDelivery(accountId: string, row: WebhookDeliveryRow): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    name: resources.webhookDelivery.format({ accountId, endpointId: row.endpointId, deliveryId: row.id }),
    eventId: row.eventId,
    eventType: row.event.type,
    state: WebhookDelivery_State[row.state],
    attemptCount: row.attemptCount,
    statusCode: row.lastStatusCode,
    latency: row.attemptCount === 0 ? undefined : durationFromMs(row.lastLatencyMs),
    error: row.lastError,
    responseExcerpt: row.responseExcerpt,
    lastAttemptTime: optionalTime(row.lastAttemptTime),
    nextAttemptTime: optionalTime(row.nextAttemptTime),
    createTime: timestampFromDate(row.createTime),
  });
}
