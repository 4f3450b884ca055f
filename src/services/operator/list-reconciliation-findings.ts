import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListReconciliationFindingsRequest,
  type ListReconciliationFindingsResponse,
  ListReconciliationFindingsResponseSchema,
  ReconciliationFinding_Kind,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { findLink } from "../../store/links.js";
import {
  type FindingKindName,
  type FindingRow,
  listReconciliationFindings,
} from "../../store/reconciliation-findings.js";
import { listPage } from "../list-page.js";
import { readName } from "../management-access.js";
import { requireOperator } from "../principal.js";

const kinds: Record<FindingKindName, ReconciliationFinding_Kind> = {
  CREDITED_FROM_REPORT: ReconciliationFinding_Kind.CREDITED_FROM_REPORT,
  SETTLED_NOT_CREDITED: ReconciliationFinding_Kind.SETTLED_NOT_CREDITED,
};

/**
 * Why reconciliation changed the books or could not ("a reconciliation that finds a
 * difference fixes it and records why"), oldest first, optionally of one link. A page token
 * is bound to the link filter it was issued for (AIP-158).
 */
export function createListReconciliationFindings(deps: ServiceDeps) {
  return async (
    request: ListReconciliationFindingsRequest,
    ctx: HandlerContext,
  ): Promise<ListReconciliationFindingsResponse> => {
    requireOperator(ctx);
    let linkId: string | undefined;
    if (request.link !== "") {
      const name = readName(resources.link, request.link, "link");
      const link = await findLink(deps.db, name.accountId, name.linkId);
      if (!link) throw notFound(`Distributor link "${request.link}" not found.`);
      linkId = link.id;
    }
    const page = await listPage(deps, request, {
      scope: `reconciliationFindings:${request.link}`,
      load: ({ after: cursor, take }) => {
        const after =
          cursor === undefined
            ? undefined
            : { createTime: cursor[0] ?? "", purchaseId: cursor[1] ?? "", kind: cursor[2] ?? "" };
        return listReconciliationFindings(deps.db, { linkId, after, take });
      },
      cursorOf: (row) => [row.createTime.toISOString(), row.purchaseId, row.kind],
    });
    return create(ListReconciliationFindingsResponseSchema, {
      reconciliationFindings: page.items.map(toFinding),
      nextPageToken: page.nextPageToken,
    });
  };
}

function toFinding(row: FindingRow) {
  return {
    purchase: resources.purchase.format({
      accountId: row.accountId,
      campaignId: row.campaignId,
      purchaseId: row.purchaseId,
    }),
    link: resources.link.format({ accountId: row.accountId, linkId: row.linkId }),
    kind: kinds[row.kind],
    reportStatus: row.reportStatus,
    detail: row.detail,
    createTime: timestampFromDate(row.createTime),
  };
}
