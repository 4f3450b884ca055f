import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type AuditEvent,
  AuditEvent_ActorType,
  AuditEventSchema,
} from "../../../gen/encore/audit/v1/audit_service_pb.js";
import type { AuditActorType } from "../../../gen/prisma/enums.js";
import { resources } from "../../domain/resource-names.js";
import type { AuditEventRow } from "../../store/audit-events.js";

const actorTypes: Record<AuditActorType, AuditEvent_ActorType> = {
  API_KEY: AuditEvent_ActorType.API_KEY,
  SESSION: AuditEvent_ActorType.SESSION,
  OPERATOR: AuditEvent_ActorType.OPERATOR,
  NONE: AuditEvent_ActorType.NONE,
};

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  const request = row.request;
  return create(AuditEventSchema, {
    name:
      row.accountId === null
        ? resources.serviceAuditEvent.format({ eventId: row.id })
        : resources.auditEvent.format({ accountId: row.accountId, eventId: row.id }),
    actorType: actorTypes[row.actorType],
    actor: row.actor,
    session: row.sessionId ?? "",
    method: row.method,
    resource: row.resource,
    changedFields: row.changedFields,
    request: request !== null && typeof request === "object" && !Array.isArray(request) ? (request as JsonObject) : {},
    address: row.address,
    requestId: row.requestId,
    code: row.code,
    createTime: timestampFromDate(row.createTime),
    callCount: row.callCount,
  });
}
