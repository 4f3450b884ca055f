import { type Duration, durationMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { WebhookEndpoint_State, type WebhookService } from "../../../gen/encore/webhook/v1/webhook_service_pb.js";
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
import { listAccountPage } from "../list-page.js";
import { authorizeName, authorizeParent, loadAuthorized } from "../management-access.js";
import { checkDescription, checkEventTypes, checkWebhookUrl } from "./endpoint-input.js";
import { toWebhookEndpoint } from "./webhook-mapper.js";

// A rotation's previous secret signs beside the new one for this long unless the call says.
const DEFAULT_OVERLAP_MS = 24 * 60 * 60 * 1000;
const MAX_OVERLAP_MS = 7 * 24 * 60 * 60 * 1000;

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

type EndpointMethods = Pick<
  ServiceImpl<typeof WebhookService>,
  | "createWebhookEndpoint"
  | "listWebhookEndpoints"
  | "getWebhookEndpoint"
  | "updateWebhookEndpoint"
  | "deleteWebhookEndpoint"
  | "rotateWebhookEndpointSecret"
>;

/** An account's webhook endpoints, as its studio manages them. */
export function createEndpointMethods(deps: ServiceDeps): EndpointMethods {
  return {
    /**
     * CreateWebhookEndpoint: the signing secret is in this response once; it is stored sealed. An
     * account has at most WEBHOOK_ENDPOINTS_PER_ACCOUNT endpoints (docs/webhooks.md "Fairness").
     */
    async createWebhookEndpoint(request, ctx) {
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
    },

    async listWebhookEndpoints(request, ctx) {
      const page = await listAccountPage(deps, ctx, request, {
        permission: "webhook.endpoints.list",
        scope: "webhookEndpoints",
        load: listWebhookEndpoints,
      });
      return { webhookEndpoints: page.items.map((row) => toWebhookEndpoint(row)), nextPageToken: page.nextPageToken };
    },

    async getWebhookEndpoint(request, ctx) {
      const endpoint = authorizeName(ctx, "webhook.endpoints.get", resources.webhookEndpoint, request.name);
      return toWebhookEndpoint(
        await loadAuthorized(endpoint, (n) => findWebhookEndpoint(deps.db, n.accountId, n.endpointId)),
      );
    },

    /** UpdateWebhookEndpoint (AIP-134): url, event_types, description, state (ACTIVE re-enables). */
    async updateWebhookEndpoint(request, ctx) {
      const input = request.webhookEndpoint;
      const { name, message } = authorizeName(
        ctx,
        "webhook.endpoints.update",
        resources.webhookEndpoint,
        input?.name ?? "",
        { field: "webhookEndpoint.name" },
      );
      // Without a mask, the fields the request sets.
      const set = {
        url: Boolean(input?.url),
        event_types: Boolean(input?.eventTypes.length),
        description: Boolean(input?.description),
        state: Boolean(input?.state),
      };
      const updatable = Object.keys(set) as (keyof typeof set)[];
      const mask = resolveUpdateMask({
        paths: request.updateMask?.paths ?? [],
        updatable,
        present: updatable.filter((field) => set[field]),
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
    },

    async deleteWebhookEndpoint(request, ctx) {
      const { name, message } = authorizeName(ctx, "webhook.endpoints.delete", resources.webhookEndpoint, request.name);
      if (!(await deleteWebhookEndpoint(deps.db, name.accountId, name.endpointId))) throw notFound(message);
      return {};
    },

    /**
     * RotateWebhookEndpointSecret: a new secret, in this response once; the previous one signs
     * beside it for `overlap` (default 24 h, at most 7 days; zero: not at all).
     */
    async rotateWebhookEndpointSecret(request, ctx) {
      const endpoint = authorizeName(ctx, "webhook.endpoints.rotateSecret", resources.webhookEndpoint, request.name);
      const overlapMs = readOverlap(request.overlap);
      const now = deps.now();
      const secret = newSigningSecret();
      const row = await rotateWebhookSecret(deps.db, {
        accountId: endpoint.name.accountId,
        id: endpoint.name.endpointId,
        secretEncrypted: sealSecret(deps.masterKeys, secret),
        previousExpireTime: overlapMs === 0 ? null : new Date(now.getTime() + overlapMs),
        now,
      });
      if (!row) throw notFound(endpoint.message);
      return toWebhookEndpoint(row, secret);
    },
  };
}

function readState(state: WebhookEndpoint_State): "ACTIVE" | "DISABLED" {
  if (state === WebhookEndpoint_State.ACTIVE) return "ACTIVE";
  if (state === WebhookEndpoint_State.DISABLED) return "DISABLED";
  throw invalidArgument('"webhookEndpoint.state" must be STATE_ACTIVE or STATE_DISABLED.');
}

function readOverlap(overlap: Duration | undefined): number {
  if (overlap === undefined) return DEFAULT_OVERLAP_MS;
  const ms = durationMs(overlap);
  if (ms < 0 || ms > MAX_OVERLAP_MS) throw invalidArgument('"overlap" must be between 0 and 7 days.');
  return ms;
}
