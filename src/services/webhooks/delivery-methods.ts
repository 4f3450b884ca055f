import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type GetWebhookDeliveryRequest,
  type ListWebhookDeliveriesRequest,
  type ListWebhookDeliveriesResponse,
  ListWebhookDeliveriesResponseSchema,
  type RedeliverWebhookDeliveryRequest,
  type WebhookDelivery,
} from "../../../gen/encore/webhook/v1/webhook_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound, rateLimited } from "../../errors/status.js";
import { findWebhookDelivery, listWebhookDeliveries, redeliverWebhook } from "../../store/webhook-deliveries.js";
import { findWebhookEndpoint } from "../../store/webhook-endpoints.js";
import { listById } from "../list-page.js";
import { loadAuthorized, notFoundMessage, readName } from "../management-access.js";
import { authorize } from "../principal.js";
import { toWebhookDelivery } from "./webhook-mapper.js";

/** The endpoint's deliveries, newest first (ids sort in creation order). */
export function createListWebhookDeliveries(deps: ServiceDeps) {
  return async (request: ListWebhookDeliveriesRequest, ctx: HandlerContext): Promise<ListWebhookDeliveriesResponse> => {
    const name = readName(resources.webhookEndpoint, request.parent, "parent");
    await loadAuthorized({ ctx, permission: "webhook.deliveries.list", name, text: request.parent }, (n) =>
      findWebhookEndpoint(deps.db, n.accountId, n.endpointId),
    );
    const page = await listById(deps, request, {
      scope: `webhookDeliveries:${name.endpointId}`,
      // Newest first: the next page starts before the last id.
      load: ({ after, take }) => listWebhookDeliveries(deps.db, { ...name, take, before: after }),
    });
    return create(ListWebhookDeliveriesResponseSchema, {
      webhookDeliveries: page.items.map((row) => toWebhookDelivery(name.accountId, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}

export function createGetWebhookDelivery(deps: ServiceDeps) {
  return async (request: GetWebhookDeliveryRequest, ctx: HandlerContext): Promise<WebhookDelivery> => {
    const name = readName(resources.webhookDelivery, request.name, "name");
    const row = await loadAuthorized({ ctx, permission: "webhook.deliveries.get", name, text: request.name }, (n) =>
      findWebhookDelivery(deps.db, { ...n, id: n.deliveryId }),
    );
    return toWebhookDelivery(name.accountId, row);
  };
}

/**
 * Queues the event again to this endpoint, due at once (the next pass of any replica's delivery
 * job takes it), with the same id and body; its attempts start over. A delivery still pending
 * (queued, waiting for a retry or in flight) is answered as it is, not queued twice; at most
 * WEBHOOK_REDELIVERIES_PER_HOUR an endpoint (docs/webhooks.md "Fairness"), then 429.
 */
export function createRedeliverWebhookDelivery(deps: ServiceDeps) {
  return async (request: RedeliverWebhookDeliveryRequest, ctx: HandlerContext): Promise<WebhookDelivery> => {
    const name = readName(resources.webhookDelivery, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "webhook.deliveries.redeliver", name.accountId, message);
    const perHour = deps.config.webhooks.redeliveriesPerHour;
    const outcome = await redeliverWebhook(deps.db, { ...name, id: name.deliveryId, now: deps.now(), perHour });
    if (outcome.kind === "absent") throw notFound(message);
    if (outcome.kind === "disabled") {
      throw deps.refuse("WEBHOOK_ENDPOINT_DISABLED", {
        subject: request.name,
        message: "The endpoint is disabled; enable it (UpdateWebhookEndpoint, state STATE_ACTIVE) first.",
      });
    }
    if (outcome.kind === "limited") {
      throw rateLimited(
        `The endpoint queued its ${perHour} redeliveries this hour; the next can be queued at ${outcome.nextAllowed.toISOString()}.`,
      );
    }
    return toWebhookDelivery(name.accountId, outcome.row);
  };
}
