import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type ListAllAuditEventsRequest,
  type ListAllAuditEventsResponse,
  ListAllAuditEventsResponseSchema,
  type OperatorAuditService,
} from "../../../gen/encore/operator/v1/operator_audit_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { requireOperator } from "../principal.js";
import { toAuditEvent } from "./audit-mapper.js";
import { pageAuditEvents } from "./list-audit-events.js";

/**
 * encore.operator.v1.OperatorAuditService: the audit log of every account, and the events of
 * none (service-wide operator calls, failed authentications). Only the operator token reaches
 * it (authenticate interceptor), and the handler checks that again.
 */
export function createOperatorAuditService(deps: ServiceDeps): ServiceImpl<typeof OperatorAuditService> {
  return {
    async listAllAuditEvents(
      request: ListAllAuditEventsRequest,
      ctx: HandlerContext,
    ): Promise<ListAllAuditEventsResponse> {
      requireOperator(ctx);
      const page = await pageAuditEvents(deps, { ...request, accountId: undefined });
      return create(ListAllAuditEventsResponseSchema, {
        auditEvents: page.items.map(toAuditEvent),
        nextPageToken: page.nextPageToken,
      });
    },
  };
}
