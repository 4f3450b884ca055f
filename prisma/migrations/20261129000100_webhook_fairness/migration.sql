-- Fair webhook delivery (docs/webhooks.md, Fairness): an endpoint backs off as a whole after a
-- failed attempt, counts its redeliveries an hour, and the delivery lease reads each endpoint's due
-- deliveries and the attempts in flight from an index.

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "backoff_level" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "backoff_until" TIMESTAMPTZ(6),
ADD COLUMN     "redeliver_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "redeliver_window_start" TIMESTAMPTZ(6);

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_state_next_attempt_time_idx" ON "webhook_deliveries"("endpoint_id", "state", "next_attempt_time");

-- CreateIndex
CREATE INDEX "webhook_deliveries_lease_until_idx" ON "webhook_deliveries"("lease_until");

