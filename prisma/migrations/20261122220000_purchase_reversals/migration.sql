-- CreateEnum
CREATE TYPE "ReversalKind" AS ENUM ('REFUNDED', 'PARTIAL_REFUND', 'CHARGEDBACK', 'REFUNDED_SUSPECTED_FRAUD', 'REFUNDED_FRIENDLY_FRAUD');

-- CreateEnum
CREATE TYPE "FindingKind" AS ENUM ('CREDITED_FROM_REPORT', 'SETTLED_NOT_CREDITED');

-- AlterEnum
ALTER TYPE "LedgerType" ADD VALUE 'REVERSAL';

-- AlterTable
ALTER TABLE "distributor_links" ADD COLUMN     "issued_nanos" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "reconcile_lease_until" TIMESTAMPTZ(6),
ADD COLUMN     "reconcile_time" TIMESTAMPTZ(6),
ADD COLUMN     "reversed_nanos" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "reversal_id" TEXT;

-- CreateTable
CREATE TABLE "purchase_reversals" (
    "purchase_id" TEXT NOT NULL,
    "link_id" TEXT NOT NULL,
    "kind" "ReversalKind" NOT NULL,
    "reversed_nanos" BIGINT NOT NULL,
    "platform_time" TIMESTAMPTZ(6) NOT NULL,
    "seen_time" TIMESTAMPTZ(6) NOT NULL,
    "update_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "purchase_reversals_pkey" PRIMARY KEY ("purchase_id")
);

-- CreateTable
CREATE TABLE "reconciliation_cursors" (
    "link_id" TEXT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "report_time" TEXT NOT NULL,
    "seen_order_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "max_results" INTEGER NOT NULL DEFAULT 1000,
    "update_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "reconciliation_cursors_pkey" PRIMARY KEY ("link_id","app_id")
);

-- CreateTable
CREATE TABLE "reconciliation_findings" (
    "purchase_id" TEXT NOT NULL,
    "kind" "FindingKind" NOT NULL,
    "link_id" TEXT NOT NULL,
    "report_status" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "reconciliation_findings_pkey" PRIMARY KEY ("purchase_id","kind")
);

-- CreateIndex
CREATE INDEX "purchase_reversals_link_id_seen_time_idx" ON "purchase_reversals"("link_id", "seen_time");

-- CreateIndex
CREATE INDEX "reconciliation_findings_link_id_create_time_idx" ON "reconciliation_findings"("link_id", "create_time");

-- CreateIndex
CREATE INDEX "ledger_entries_reversal_id_idx" ON "ledger_entries"("reversal_id");

-- AddForeignKey
ALTER TABLE "purchase_reversals" ADD CONSTRAINT "purchase_reversals_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchase_reversals" ADD CONSTRAINT "purchase_reversals_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "distributor_links"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reconciliation_cursors" ADD CONSTRAINT "reconciliation_cursors_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "distributor_links"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reconciliation_findings" ADD CONSTRAINT "reconciliation_findings_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reconciliation_findings" ADD CONSTRAINT "reconciliation_findings_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "distributor_links"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_reversal_id_fkey" FOREIGN KEY ("reversal_id") REFERENCES "purchase_reversals"("purchase_id") ON DELETE RESTRICT ON UPDATE CASCADE;



-- Backfill: before reversals existed, everything issued was either still outstanding or settled.
UPDATE "distributor_links" d
   SET "issued_nanos" = d."outstanding_nanos" + COALESCE((SELECT SUM(s."amount_nanos") FROM "settlements" s WHERE s."link_id" = d."id"), 0);
