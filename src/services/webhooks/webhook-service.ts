import type { ServiceImpl } from "@connectrpc/connect";
import type { WebhookService } from "../../../gen/encore/webhook/v1/webhook_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import {
  createGetWebhookDelivery,
  createListWebhookDeliveries,
  createRedeliverWebhookDelivery,
} from "./delivery-methods.js";
import {
  createCreateWebhookEndpoint,
  createDeleteWebhookEndpoint,
  createGetWebhookEndpoint,
  createListWebhookEndpoints,
  createRotateWebhookEndpointSecret,
  createUpdateWebhookEndpoint,
} from "./endpoint-methods.js";

/**
 * encore.webhook.v1.WebhookService: an account's webhook endpoints and their
 * deliveries. Every method authorizes against the permission table (`webhook.*`) and answers
 * NOT_FOUND otherwise (spec 5.3).
 */
export function createWebhookService(deps: ServiceDeps): ServiceImpl<typeof WebhookService> {
  return {
    createWebhookEndpoint: createCreateWebhookEndpoint(deps),
    listWebhookEndpoints: createListWebhookEndpoints(deps),
    getWebhookEndpoint: createGetWebhookEndpoint(deps),
    updateWebhookEndpoint: createUpdateWebhookEndpoint(deps),
    deleteWebhookEndpoint: createDeleteWebhookEndpoint(deps),
    rotateWebhookEndpointSecret: createRotateWebhookEndpointSecret(deps),
    listWebhookDeliveries: createListWebhookDeliveries(deps),
    getWebhookDelivery: createGetWebhookDelivery(deps),
    redeliverWebhookDelivery: createRedeliverWebhookDelivery(deps),
  };
}
