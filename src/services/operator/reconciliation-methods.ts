import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  type OperatorService,
  ReconciliationFinding_Kind,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { findLink } from "../../store/links.js";
import { type FindingRow, listReconciliationFindings } from "../../store/reconciliation-findings.js";
import { holdLinkLease, leaseLink } from "../../store/reconciliation-leases.js";
import {
  RECONCILIATION_LEASE_MS,
  REPORT_PAGE_SIZE,
  reconcileLink,
} from "../../usecases/reconciliation/reconcile-link.js";
import { listPage } from "../list-page.js";
import { readName } from "../management-access.js";
import { toMoney } from "../money-mapper.js";
import { requireOperator } from "../principal.js";

type ReconciliationMethods = Pick<
  ServiceImpl<typeof OperatorService>,
  "reconcileDistributorLink" | "listReconciliationFindings"
>;

/** Reconciliation of a link's books with its platform's reports, on demand, and what it found. */
export function createReconciliationMethods(deps: ServiceDeps): ReconciliationMethods {
  return {
    /**
     * The operator's demand for a reconciliation pass: the same pass the background job runs,
     * under the same lease, so it never runs beside a replica's pass over the link (ABORTED
     * RECONCILIATION_RUNNING while one holds it). A platform that does not answer ends the pass
     * early, reported in `stopped_because`; what was applied stays applied.
     */
    async reconcileDistributorLink(request, ctx) {
      requireOperator(ctx);
      const { accountId, linkId } = readName(resources.link, request.name, "name");
      const link = await findLink(deps.db, accountId, linkId);
      if (!link) throw notFound(`Distributor link "${request.name}" not found.`);
      const now = deps.now();
      const task = await leaseLink(deps.db, {
        linkId,
        now,
        leaseUntil: new Date(now.getTime() + RECONCILIATION_LEASE_MS),
      });
      if (!task) {
        throw deps.refuse("RECONCILIATION_RUNNING", {
          subject: request.name,
          message: "A reconciliation pass over this distributor link is under way; retry later.",
        });
      }
      const lease = holdLinkLease(deps.db, task, { now: deps.now, leaseMs: RECONCILIATION_LEASE_MS });
      let drained = false;
      try {
        const report = await reconcileLink(deps, task, { pageSize: REPORT_PAGE_SIZE, keepGoing: lease.renew });
        drained = report.drained;
        return {
          link: request.name,
          pages: report.pages,
          reversed: report.reversed,
          reversedCredit: toMoney(report.reversedNanos),
          settled: report.settled,
          mismatches: report.mismatches,
          drained: report.drained,
          stoppedBecause: report.stoppedBecause ?? "",
        };
      } finally {
        await lease.release(drained);
      }
    },

    /**
     * Why reconciliation changed the books or could not ("a reconciliation that finds a
     * difference fixes it and records why"), oldest first, optionally of one link. A page token
     * is bound to the link filter it was issued for (AIP-158).
     */
    async listReconciliationFindings(request, ctx) {
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
      return { reconciliationFindings: page.items.map(toFinding), nextPageToken: page.nextPageToken };
    },
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
    // The store spells a kind as the enum's value name.
    kind: ReconciliationFinding_Kind[row.kind],
    reportStatus: row.reportStatus,
    detail: row.detail,
    createTime: timestampFromDate(row.createTime),
  };
}
