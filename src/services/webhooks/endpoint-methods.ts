import { create } from "@bufbuild/protobuf";
import { type Duration, durationMs, type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type CreateWebhookEndpointRequest,
  type DeleteWebhookEndpointRequest,
  type GetWebhookEndpointRequest,
  type ListWebhookEndpointsRequest,
  type ListWebhookEndpointsResponse,
  ListWebhookEndpointsResponseSchema,
  type RotateWebhookEndpointSecretRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookEndpoint,
  WebhookEndpoint_State,
} from "../../../gen/encore/webhook/v1/webhook_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { sealSecret } from "../../core/secret-box.js";
import { resources } from "../../domain/resource-names.js";
import { resolveUpdateMask } from "../../domain/update-mask.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  type WebhookEndpointChanges,
} from "../../store/webhook-endpoints.js";
import { newSigningSecret } from "../../usecases/webhooks/signature.js";
import { listById } from "../list-page.js";
import { authorizeParent, loadAuthorized, notFoundMessage, readName } from "../management-access.js";
import { authorize } from "../principal.js";
import { checkDescription, checkEventTypes, checkWebhookUrl } from "./endpoint-input.js";
import { toWebhookEndpoint } from "./webhook-mapper.js";

// A rotation's previous secret signs beside the new one for this long unless the call says.
const DEFAULT_OVERLAP_MS = 24 * 60 * 60 * 1000;
const MAX_OVERLAP_MS = 7 * 24 * 60 * 60 * 1000;

type EndpointField = "url" | "event_types" | "description" | "state";
const NOT_WRITTEN = [
  "name",
  "disabled_reason",
  "disable_time",
  "signing_secret",
  "previous_secret_expire_time",
  "failing_since_time",
  "create_time",
  "update_time",
];

/**
 * CreateWebhookEndpoint: the signing secret is in this response once; it is stored sealed. An
 * account has at most WEBHOOK_ENDPOINTS_PER_ACCOUNT endpoints (docs/webhooks.md "Fairness").
 */
export function createCreateWebhookEndpoint(deps: ServiceDeps) {
  return async (request: CreateWebhookEndpointRequest, ctx: HandlerContext): Promise<WebhookEndpoint> => {
    const accountId = authorizeParent(ctx, "webhook.endpoints.create", request.parent);
    const input = request.webhookEndpoint;
    if (!input) throw invalidArgument('Missing required field "webhookEndpoint".');
    const eventTypes = checkEventTypes(input.eventTypes, "webhookEndpoint.eventTypes");
    const description = checkDescription(input.description, "webhookEndpoint.description");
    const url = await checkWebhookUrl(deps, input.url, "webhookEndpoint.url");
    const now = deps.now();
    const secret = newSigningSecret();
    const limit = deps.config.webhooks.endpointsPerAccount;
    const inserted = await insertWebhookEndpoint(deps.db, {
      id: newId(now),
      accountId,
      url,
      description,
      eventTypes,
      secretEncrypted: sealSecret(deps.masterKeys, secret),
      now,
      limit,
    });
    if (inserted.kind === "limitReached") {
      throw deps.refuse("WEBHOOK_ENDPOINT_LIMIT_REACHED", {
        subject: request.parent,
        message: `The account has ${limit} webhook endpoints, the most it may have; delete one before creating another.`,
        metadata: { endpointLimit: String(limit) },
      });
    }
    return toWebhookEndpoint(inserted.row, secret);
  };
}

export function createListWebhookEndpoints(deps: ServiceDeps) {
  return async (request: ListWebhookEndpointsRequest, ctx: HandlerContext): Promise<ListWebhookEndpointsResponse> => {
    const accountId = authorizeParent(ctx, "webhook.endpoints.list", request.parent);
    const page = await listById(deps, request, {
      scope: `webhookEndpoints:${accountId}`,
      load: (next) => listWebhookEndpoints(deps.db, accountId, next),
    });
    return create(ListWebhookEndpointsResponseSchema, {
      webhookEndpoints: page.items.map((row) => toWebhookEndpoint(row)),
      nextPageToken: page.nextPageToken,
    });
  };
}

export function createGetWebhookEndpoint(deps: ServiceDeps) {
  return async (request: GetWebhookEndpointRequest, ctx: HandlerContext): Promise<WebhookEndpoint> => {
    const name = readName(resources.webhookEndpoint, request.name, "name");
    const row = await loadAuthorized({ ctx, permission: "webhook.endpoints.get", name, text: request.name }, (n) =>
      findWebhookEndpoint(deps.db, n.accountId, n.endpointId),
    );
    return toWebhookEndpoint(row);
  };
}

/** UpdateWebhookEndpoint (AIP-134): url, event_types, description, state (ACTIVE re-enables). */
export function createUpdateWebhookEndpoint(deps: ServiceDeps) {
  return async (request: UpdateWebhookEndpointRequest, ctx: HandlerContext): Promise<WebhookEndpoint> => {
    const input = request.webhookEndpoint;
    const text = input?.name ?? "";
    const name = readName(resources.webhookEndpoint, text, "webhookEndpoint.name");
    const message = notFoundMessage(text);
    authorize(ctx, "webhook.endpoints.update", name.accountId, message);
    const present: EndpointField[] = [];
    if (input?.url) present.push("url");
    if (input?.eventTypes.length) present.push("event_types");
    if (input?.description) present.push("description");
    if (input?.state) present.push("state");
    const mask = resolveUpdateMask<EndpointField>({
      paths: request.updateMask?.paths ?? [],
      updatable: ["url", "event_types", "description", "state"],
      present,
      ignored: NOT_WRITTEN,
    });
    if (!mask.ok) throw invalidArgument(`"updateMask" names "${mask.path}", which cannot be updated.`);
    const changes: WebhookEndpointChanges = {};
    if (mask.fields.has("event_types")) {
      changes.eventTypes = checkEventTypes(input?.eventTypes ?? [], "webhookEndpoint.eventTypes");
    }
    if (mask.fields.has("description")) {
      changes.description = checkDescription(input?.description ?? "", "webhookEndpoint.description");
    }
    if (mask.fields.has("state")) changes.state = readState(input?.state ?? WebhookEndpoint_State.UNSPECIFIED);
    if (mask.fields.has("url")) changes.url = await checkWebhookUrl(deps, input?.url ?? "", "webhookEndpoint.url");
    const row = await updateWebhookEndpoint(deps.db, { ...name, id: name.endpointId, changes, now: deps.now() });
    if (!row) throw notFound(message);
    return toWebhookEndpoint(row);
  };
}

function readState(state: WebhookEndpoint_State): "ACTIVE" | "DISABLED" {
  if (state === WebhookEndpoint_State.ACTIVE) return "ACTIVE";
  if (state === WebhookEndpoint_State.DISABLED) return "DISABLED";
  throw invalidArgument('"webhookEndpoint.state" must be STATE_ACTIVE or STATE_DISABLED.');
}

export function createDeleteWebhookEndpoint(deps: ServiceDeps) {
  return async (request: DeleteWebhookEndpointRequest, ctx: HandlerContext): Promise<Empty> => {
    const name = readName(resources.webhookEndpoint, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "webhook.endpoints.delete", name.accountId, message);
    if (!(await deleteWebhookEndpoint(deps.db, name.accountId, name.endpointId))) throw notFound(message);
    return create(EmptySchema);
  };
}

/**
 * RotateWebhookEndpointSecret: a new secret, in this response once; the previous one signs
 * beside it for `overlap` (default 24 h, at most 7 days; zero: not at all).
 */
export function createRotateWebhookEndpointSecret(deps: ServiceDeps) {
  return async (request: RotateWebhookEndpointSecretRequest, ctx: HandlerContext): Promise<WebhookEndpoint> => {
    const name = readName(resources.webhookEndpoint, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "webhook.endpoints.rotateSecret", name.accountId, message);
    const overlapMs = readOverlap(request.overlap);
    const now = deps.now();
    const secret = newSigningSecret();
    const row = await rotateWebhookSecret(deps.db, {
      accountId: name.accountId,
      id: name.endpointId,
      secretEncrypted: sealSecret(deps.masterKeys, secret),
      previousExpireTime: overlapMs === 0 ? null : new Date(now.getTime() + overlapMs),
      now,
    });
    if (!row) throw notFound(message);
    return toWebhookEndpoint(row, secret);
  };
}

function readOverlap(overlap: Duration | undefined): number {
  if (overlap === undefined) return DEFAULT_OVERLAP_MS;
  const ms = durationMs(overlap);
  if (ms < 0 || ms > MAX_OVERLAP_MS) throw invalidArgument('"overlap" must be between 0 and 7 days.');
  return ms;
}
