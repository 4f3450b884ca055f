import { performance } from "node:perf_hooks";
import type { WebhookConfig } from "../config.js";
import type { DeliveryTask } from "../store/webhook-delivery-attempts.js";
import { resolveWebhookTarget, type WebhookTarget, WebhookUrlRefused } from "../usecases/webhooks/address-guard.js";
import { type PostOutcome, postWebhook } from "../usecases/webhooks/post-webhook.js";
import { SIGNATURE_HEADER, signatureHeader } from "../usecases/webhooks/signature.js";

// One attempt's exchange (docs/webhooks.md "Delivery"): resolve and check the endpoint's host,
// then POST the signed event to the address checked. WEBHOOK_TIMEOUT_MS bounds the whole of it,
// the host's resolution included, so no attempt holds its slot past the timeout
// (docs/webhooks.md "Fairness").

export interface SendOptions {
  task: Pick<DeliveryTask, "url" | "payload" | "eventId">;
  secrets: string[];
  now: Date;
  config: Pick<WebhookConfig, "allowHttp" | "allowAddresses" | "timeoutMs" | "dnsServers">;
  /** The address guard; tests give one that never answers. */
  resolve?: typeof resolveWebhookTarget;
}

export async function sendDelivery(options: SendOptions): Promise<PostOutcome> {
  const { task, config } = options;
  const resolve = options.resolve ?? resolveWebhookTarget;
  const started = performance.now();
  let target: WebhookTarget | undefined;
  try {
    // Resolved and checked again at every attempt: the host's addresses may have changed
    // since the endpoint was created (DNS rebinding); the POST goes to the address checked.
    target = await withinMs(resolve(task.url, config), config.timeoutMs);
  } catch (error) {
    if (!(error instanceof WebhookUrlRefused)) throw error;
    return { statusCode: 0, latencyMs: 0, error: `URL refused: it ${error.message}`, responseExcerpt: "" };
  }
  if (target === undefined) {
    return {
      statusCode: 0,
      latencyMs: Math.round(performance.now() - started),
      error: `no answer within ${config.timeoutMs} ms (the host did not resolve in time)`,
      responseExcerpt: "",
    };
  }
  const timestamp = Math.floor(options.now.getTime() / 1000);
  return postWebhook(target, {
    body: task.payload,
    headers: {
      [SIGNATURE_HEADER]: signatureHeader(options.secrets, timestamp, task.payload),
      "Encore-Event-Id": task.eventId,
    },
    timeoutMs: config.timeoutMs,
    clock: () => performance.now(),
    startedAt: started,
  });
}

/** The promise's value, or undefined once `ms` passed first (it is left to settle unobserved). */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
