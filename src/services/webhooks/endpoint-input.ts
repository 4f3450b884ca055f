import type { ServiceDeps } from "../../core/deps.js";
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events.js";
import { invalidArgument } from "../../errors/status.js";
import { resolveWebhookTarget, WebhookUrlRefused } from "../../usecases/webhooks/address-guard.js";

// What a studio may write into an endpoint, checked the same on create and update.

const MAX_URL = 2048;
const MAX_DESCRIPTION = 500;

/** The URL, refused INVALID_ARGUMENT unless https (config) and resolving to allowed addresses. */
export async function checkWebhookUrl(deps: Pick<ServiceDeps, "config">, url: string, field: string): Promise<string> {
  const text = url.trim();
  if (text === "") throw invalidArgument(`"${field}" is required.`);
  if (text.length > MAX_URL) throw invalidArgument(`"${field}" must be at most ${MAX_URL} characters.`);
  try {
    await resolveWebhookTarget(text, deps.config.webhooks);
  } catch (error) {
    if (error instanceof WebhookUrlRefused) throw invalidArgument(`"${field}" ${error.message}.`);
    throw error;
  }
  return text;
}

/** At least one known event type, each once, in the order given. */
export function checkEventTypes(types: readonly string[], field: string): string[] {
  if (types.length === 0) throw invalidArgument(`"${field}" must name at least one event type.`);
  const unknown = types.find((type) => !isWebhookEventType(type));
  if (unknown !== undefined) {
    throw invalidArgument(`"${field}" names "${unknown}", which is not one of ${WEBHOOK_EVENT_TYPES.join(", ")}.`);
  }
  return [...new Set(types)];
}

export function checkDescription(description: string, field: string): string {
  if ([...description].length > MAX_DESCRIPTION) {
    throw invalidArgument(`"${field}" must be at most ${MAX_DESCRIPTION} characters.`);
  }
  return description;
}
