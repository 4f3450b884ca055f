import type { ServiceImpl } from "@connectrpc/connect";
import type { WebhookService } from "../../../gen/encore/webhook/v1/webhook_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { createDeliveryMethods } from "./delivery-methods.js";
import { createEndpointMethods } from "./endpoint-methods.js";

/**
 * encore.webhook.v1.WebhookService: an account's webhook endpoints and their
 * deliveries. Every method authorizes against the permission table (`webhook.*`) and answers
 * NOT_FOUND otherwise (spec 5.3).
 */
export function createWebhookService(deps: ServiceDeps): ServiceImpl<typeof WebhookService> {
  return { ...createEndpointMethods(deps), ...createDeliveryMethods(deps) };
}
