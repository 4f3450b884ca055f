import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ReconcileDistributorLinkRequest,
  type Reconciliation,
  ReconciliationSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { findLink } from "../../store/links.js";
import { leaseLink, releaseLinkLease, renewLinkLease } from "../../store/reconciliation-leases.js";
import {
  RECONCILIATION_LEASE_MS,
  REPORT_PAGE_SIZE,
  reconcileLink,
} from "../../usecases/reconciliation/reconcile-link.js";
import { readName } from "../management-access.js";
import { toMoney } from "../money-mapper.js";
import { requireOperator } from "../principal.js";

/**
 * The operator's demand for a reconciliation pass: the same pass the background job
 * runs, under the same lease, so it never runs beside a replica's pass over the link (ABORTED
 * RECONCILIATION_RUNNING while one holds it). A platform that does not answer ends the pass early, reported in
 * `stopped_because`; what was applied stays applied.
 */
export function createReconcileDistributorLink(deps: ServiceDeps) {
  return async (request: ReconcileDistributorLinkRequest, ctx: HandlerContext): Promise<Reconciliation> => {
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
    let heldUntil = task.leaseUntil;
    const keepGoing = async () => {
      const at = deps.now();
      const until = new Date(at.getTime() + RECONCILIATION_LEASE_MS);
      const renewed = await renewLinkLease(deps.db, { linkId, heldUntil, now: at, leaseUntil: until });
      if (renewed) heldUntil = until;
      return renewed;
    };
    let drained = false;
    try {
      const report = await reconcileLink(deps, task, { pageSize: REPORT_PAGE_SIZE, keepGoing });
      drained = report.drained;
      return create(ReconciliationSchema, {
        link: request.name,
        pages: report.pages,
        reversed: report.reversed,
        reversedCredit: toMoney(report.reversedNanos),
        settled: report.settled,
        mismatches: report.mismatches,
        drained: report.drained,
        stoppedBecause: report.stoppedBecause ?? "",
      });
    } finally {
      await releaseLinkLease(deps.db, { linkId, heldUntil, now: deps.now(), drained });
    }
  };
}
