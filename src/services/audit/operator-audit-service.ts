import type { ServiceImpl } from "@connectrpc/connect";
import type { OperatorAuditService } from "../../../gen/encore/operator/v1/operator_audit_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { requireOperator } from "../principal.js";
import { listAuditEventsPage } from "./list-audit-events.js";

/**
 * encore.operator.v1.OperatorAuditService: the audit log of every account, and the events of
 * none (service-wide operator calls, failed authentications). Only the operator token reaches
 * it (authenticate interceptor), and the handler checks that again.
 */
export function createOperatorAuditService(deps: ServiceDeps): ServiceImpl<typeof OperatorAuditService> {
  return {
    async listAllAuditEvents(request, ctx) {
      requireOperator(ctx);
      return listAuditEventsPage(deps, { ...request, accountId: undefined });
    },
  };
}
