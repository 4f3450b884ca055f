import type { Prisma } from "../../../gen/prisma/client.js";
import type { ServiceDeps } from "../../core/deps.js";
import type { CursorState } from "../../domain/report-cursor.js";
import { type ReconcileStep, type ReversalKind, reconcileStep } from "../../domain/reversal.js";
import type { ReportOrder } from "../../platform/steam/steam-platform.js";
import { creditEndedPurchase } from "../../store/ended-purchase-credit.js";
import {
  advanceCursor,
  findReconciledPurchases,
  type ReconciledRow,
  recordFinding,
  recordReversal,
} from "../../store/reconciliation.js";
import type { ReconciliationTask } from "../../store/reconciliation-leases.js";

/** Another replica moved the cursor while this one applied the same page: roll back, re-read. */
export class CursorMoved extends Error {}

export interface AppliedPage {
  /** Reversals recorded or raised. */
  reversed: number;
  reversedNanos: bigint;
  /** Purchases the service had ended without credit, credited now from the report. */
  settled: number;
  /**
   * Purchases the service had ended without credit (FAILED, CANCELLED) that the platform settled,
   * found now: credited (also counted in `settled`) or, taken back in full, owing nothing.
   */
  mismatches: number;
}

/**
 * Applies one report page in ONE transaction: the page's purchases are locked, each
 * reconciled against its row (a reversal recorded or raised; an ended purchase the platform
 * settled credited, or found owing nothing, with the finding that says why), and the cursor
 * advanced from where the page was read. A crash anywhere leaves none of it; a cursor another
 * replica moved first rolls it all back (CursorMoved). Row locks and conditional writes make
 * each change once however often the report repeats a row.
 */
export async function applyReportPage(
  deps: Pick<ServiceDeps, "db" | "now" | "webhookEvents" | "metrics">,
  page: {
    task: ReconciliationTask;
    appId: bigint;
    fresh: readonly ReportOrder[];
    from: CursorState | undefined;
    to: CursorState;
    log: ServiceDeps["logger"];
  },
): Promise<AppliedPage> {
  const { task, appId, fresh } = page;
  const now = deps.now();
  const tally: AppliedPage = { reversed: 0, reversedNanos: 0n, settled: 0, mismatches: 0 };
  // Counted only once the page is committed: a rolled-back page moved no money.
  const moves: MoneyMove[] = [];
  await deps.db.$transaction(async (tx) => {
    const rows = await findReconciledPurchases(tx, {
      linkId: task.linkId,
      appId,
      orderIds: fresh.map((order) => order.orderid),
      lock: true,
    });
    for (const row of rows) {
      const order = fresh.find((o) => o.orderid === row.orderId);
      if (order === undefined) continue;
      const step = reconcileStep(row, order);
      await applyStep(tx, {
        row,
        order,
        step,
        linkId: task.linkId,
        now,
        tally,
        moves,
        log: page.log,
        events: deps.webhookEvents,
      });
    }
    const moved = await advanceCursor(tx, { linkId: task.linkId, appId, from: page.from, to: page.to, now });
    if (!moved) throw new CursorMoved();
  });
  for (const move of moves) {
    if (move.kind === "credit") deps.metrics?.creditFromReport(move.nanos);
    else deps.metrics?.creditReversed(move.kind, move.nanos);
  }
  return tally;
}

type MoneyMove = { kind: "credit"; nanos: bigint } | { kind: ReversalKind; nanos: bigint };

async function applyStep(
  tx: Prisma.TransactionClient,
  it: {
    row: ReconciledRow;
    order: ReportOrder;
    step: ReconcileStep;
    linkId: string;
    now: Date;
    tally: AppliedPage;
    moves: MoneyMove[];
    log: ServiceDeps["logger"];
    events: ServiceDeps["webhookEvents"];
  },
): Promise<void> {
  const { row, order, step, linkId, now, tally, moves } = it;
  const platformTime = new Date(order.time);
  const seen = { purchaseId: row.id, orderId: row.orderId, reportStatus: order.status };
  if (step.action === "reverse") {
    const { kind, totalNanos, deltaNanos } = step;
    await recordReversal(tx, { purchase: row, linkId, kind, totalNanos, deltaNanos, platformTime, now });
    // Purchase.reversed in the page's transaction; the balance fell, so the runway too.
    await it.events?.purchaseEvent(tx, "purchase.reversed", row.id, now);
    if (deltaNanos > 0n) await it.events?.checkRunway(tx, row.projectId, now);
    tally.reversed += 1;
    tally.reversedNanos += deltaNanos;
    if (deltaNanos > 0n) moves.push({ kind, nanos: deltaNanos });
  } else if (step.action === "creditEnded") {
    const credited = await creditEndedPurchase(tx, {
      purchase: row,
      linkId,
      reversal: step.reversal && { ...step.reversal, platformTime },
      finding: { kind: "CREDITED_FROM_REPORT", reportStatus: order.status, detail: step.why },
      now,
    });
    if (!credited) return;
    const reversed = step.reversal !== undefined && step.reversal.totalNanos > 0n;
    await it.events?.purchaseCredited(
      tx,
      { purchaseId: row.id, projectId: row.projectId, reversed, sandbox: row.sandbox },
      now,
    );
    if (!row.sandbox) {
      moves.push({ kind: "credit", nanos: row.creditNanos });
      if (step.reversal && step.reversal.totalNanos > 0n)
        moves.push({ kind: step.reversal.kind, nanos: step.reversal.totalNanos });
    }
    tally.settled += 1;
    tally.mismatches += 1;
    it.log.warn(seen, step.why);
  } else if (step.action === "nothingOwed") {
    const finding = { kind: "SETTLED_NOT_CREDITED", reportStatus: order.status, detail: step.why } as const;
    if (!(await recordFinding(tx, { ...finding, purchaseId: row.id, linkId, now }))) return;
    tally.mismatches += 1;
    it.log.warn(seen, step.why);
  }
}
