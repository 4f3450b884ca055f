import type { ServiceImpl } from "@connectrpc/connect";
import type { WebhookService } from "../../../gen/encore/webhook/v1/webhook_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound, rateLimited } from "../../errors/status.js";
import { findWebhookDelivery, listWebhookDeliveries, redeliverWebhook } from "../../store/webhook-deliveries.js";
import { findWebhookEndpoint } from "../../store/webhook-endpoints.js";
import { listById } from "../list-page.js";
import { authorizeName, loadAuthorized } from "../management-access.js";
import { toWebhookDelivery } from "./webhook-mapper.js";

type DeliveryMethods = Pick<
  ServiceImpl<typeof WebhookService>,
  "listWebhookDeliveries" | "getWebhookDelivery" | "redeliverWebhookDelivery"
>;

/** An endpoint's deliveries: what was sent, how it was answered, and sending one again. */
export function createDeliveryMethods(deps: ServiceDeps): DeliveryMethods {
  return {
    /** The endpoint's deliveries, newest first (ids sort in creation order). */
    async listWebhookDeliveries(request, ctx) {
      const endpoint = authorizeName(ctx, "webhook.deliveries.list", resources.webhookEndpoint, request.parent, {
        field: "parent",
      });
      await loadAuthorized(endpoint, (n) => findWebhookEndpoint(deps.db, n.accountId, n.endpointId));
      const { name } = endpoint;
      const page = await listById(deps, request, {
        scope: `webhookDeliveries:${name.endpointId}`,
        // Newest first: the next page starts before the last id.
        load: ({ after, take }) => listWebhookDeliveries(deps.db, { ...name, take, before: after }),
      });
      return {
        webhookDeliveries: page.items.map((row) => toWebhookDelivery(name.accountId, row)),
        nextPageToken: page.nextPageToken,
      };
    },

    async getWebhookDelivery(request, ctx) {
      const delivery = authorizeName(ctx, "webhook.deliveries.get", resources.webhookDelivery, request.name);
      const row = await loadAuthorized(delivery, (n) => findWebhookDelivery(deps.db, { ...n, id: n.deliveryId }));
      return toWebhookDelivery(delivery.name.accountId, row);
    },

    /**
     * Queues the event again to this endpoint, due at once (the next pass of any replica's
     * delivery job takes it), with the same id and body; its attempts start over. A delivery still
     * pending (queued, waiting for a retry or in flight) is answered as it is, not queued twice; at
     * most WEBHOOK_REDELIVERIES_PER_HOUR an endpoint (docs/webhooks.md "Fairness"), then 429.
     */
    async redeliverWebhookDelivery(request, ctx) {
      const { name, message } = authorizeName(
        ctx,
        "webhook.deliveries.redeliver",
        resources.webhookDelivery,
        request.name,
      );
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
    },
  };
}
