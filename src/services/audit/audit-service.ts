import type { ServiceImpl } from "@connectrpc/connect";
import type { AuditService } from "../../../gen/encore/audit/v1/audit_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { accountNotFound } from "../account/account-methods.js";
import { authorizeParent } from "../management-access.js";
import { listAuditEventsPage } from "./list-audit-events.js";

/**
 * encore.audit.v1.AuditService: an account's audit log, for the roles holding
 * `audit.auditEvents.list` (owner, admin); NOT_FOUND for anyone else (spec 5.3).
 */
export function createAuditService(deps: ServiceDeps): ServiceImpl<typeof AuditService> {
  return {
    async listAuditEvents(request, ctx) {
      const accountId = authorizeParent(ctx, "audit.auditEvents.list", request.parent, accountNotFound);
      return listAuditEventsPage(deps, { ...request, accountId });
    },
  };
}
