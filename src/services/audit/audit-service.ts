import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type AuditService,
  type ListAuditEventsRequest,
  type ListAuditEventsResponse,
  ListAuditEventsResponseSchema,
} from "../../../gen/encore/audit/v1/audit_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { accountNotFound } from "../account/get-account.js";
import { authorizeParent } from "../management-access.js";
import { toAuditEvent } from "./audit-mapper.js";
import { pageAuditEvents } from "./list-audit-events.js";

/**
 * encore.audit.v1.AuditService: an account's audit log, for the roles holding
 * `audit.auditEvents.list` (owner, admin); NOT_FOUND for anyone else (spec 5.3).
 */
export function createAuditService(deps: ServiceDeps): ServiceImpl<typeof AuditService> {
  return {
    async listAuditEvents(request: ListAuditEventsRequest, ctx: HandlerContext): Promise<ListAuditEventsResponse> {
      const accountId = authorizeParent(ctx, "audit.auditEvents.list", request.parent, accountNotFound);
      const page = await pageAuditEvents(deps, { ...request, accountId });
      return create(ListAuditEventsResponseSchema, {
        auditEvents: page.items.map(toAuditEvent),
        nextPageToken: page.nextPageToken,
      });
    },
  };
}
