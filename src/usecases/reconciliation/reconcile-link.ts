import { openSecret } from "../../core/secret-box.js";
import { type CursorState, freshOrders, nextCursor, reportTimeOf } from "../../domain/report-cursor.js";
import { linkAppIds, readCursor } from "../../store/reconciliation.js";
import type { ReconciliationTask } from "../../store/reconciliation-leases.js";
import { markKeyRejected } from "../key-rejected.js";
import type { SettleDeps } from "../settle-purchase.js";
import { type AppliedPage, applyReportPage, CursorMoved } from "./apply-report-page.js";
import { settleMissed } from "./settle-missed.js";

/** How long a pass holds its link between pages; a crashed replica's link comes back after it. */
export const RECONCILIATION_LEASE_MS = 5 * 60_000;
/** Report page size (reference 3.9 recommends 1000..10000). */
export const REPORT_PAGE_SIZE = 1000;

/** A pass settles what the report shows settled, so it uses what settling uses. */
export type ReconcileDeps = SettleDeps;

export interface ReconcileOptions {
  /** Page size asked of the report (reference 3.9: 1..50000). */
  pageSize: number;
  /** Asked before each page: false stops the pass (lease lost, or the job is stopping). */
  keepGoing?: () => Promise<boolean>;
}

/** What a pass came to: its pages' tallies added up (AppliedPage), and how it ended. */
export interface ReconcileReport extends AppliedPage {
  /** Report pages applied. */
  pages: number;
  /**
   * Purchases the report showed settled that had not been credited, credited now: open ones
   * settled, and ones the service had ended without credit (a partial refund's share reversed).
   */
  settled: number;
  /** True when every app's report was read to its end. */
  drained: boolean;
  /** Why the pass stopped early, when it did. */
  stoppedBecause?: string;
}

/**
 * Reconciles one leased link with the platform's report (reference 3.1 step 6): for each app of
 * its campaigns, reads GetReport (SETTLEMENT: every settled in-game order, refunded or charged back
 * ones included) from the stored cursor, page after page until drained. Open purchases the report
 * shows settled are settled first (settleMissed); then the page and the cursor's advance commit in
 * one transaction (applyReportPage), so a crash leaves neither and the next pass applies the page
 * again. A sandbox link reads the sandbox interface and moves no money.
 */
export async function reconcileLink(
  deps: ReconcileDeps,
  task: ReconciliationTask,
  options: ReconcileOptions,
): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    pages: 0,
    reversed: 0,
    reversedNanos: 0n,
    settled: 0,
    mismatches: 0,
    drained: false,
  };
  const publisherKey = openSecret(deps.masterKeys, task.publisherKeyEncrypted);
  const log = deps.logger.child({ job: "reconciliation", linkId: task.linkId });
  for (const appId of await linkAppIds(deps.db, task.linkId)) {
    const start: CursorState = {
      reportTime: reportTimeOf(task.createTime),
      seenOrderIds: [],
      maxResults: options.pageSize,
    };
    for (;;) {
      if (options.keepGoing && !(await options.keepGoing())) return stop(report, "the pass was stopped");
      const stored = await readCursor(deps.db, { linkId: task.linkId, appId });
      const cursor = stored ?? start;
      const page = await deps.steam.getReport({
        publisherKey,
        sandbox: task.sandbox,
        appid: Number(appId),
        type: "SETTLEMENT",
        time: cursor.reportTime,
        maxResults: cursor.maxResults,
      });
      if (page.kind === "unavailable") return stop(report, `the platform did not answer: ${page.cause}`);
      if (page.kind === "refused") {
        if (page.keyRejected) await markKeyRejected(deps, task.linkId, publisherKey);
        return stop(report, `the platform refused the report (${page.code})`);
      }
      const next = nextCursor(cursor, page.value, options.pageSize);
      if (next.drained) break;
      const fresh = freshOrders(cursor, page.value);
      report.settled += await settleMissed(deps, { task, appId, fresh });
      try {
        const applied = await applyReportPage(deps, { task, appId, fresh, from: stored, to: next.cursor, log });
        report.reversed += applied.reversed;
        report.reversedNanos += applied.reversedNanos;
        report.settled += applied.settled;
        report.mismatches += applied.mismatches;
        report.pages += 1;
      } catch (error) {
        if (!(error instanceof CursorMoved)) throw error;
      }
    }
  }
  report.drained = true;
  return report;
}

function stop(report: ReconcileReport, why: string): ReconcileReport {
  report.stoppedBecause = why;
  return report;
}
