-- Purchases by link and by offer (issue 14): the operator's link reversals (each link's credits
-- since a time), a link's or an offer's deletion and the foreign keys' checks behind them each
-- read every purchase without these.
--
-- This migration runs in a transaction, where a plain CREATE INDEX holds off writes to purchases
-- while it builds (docs/performance.md, Purchases by link and by offer: some 2.2 s a million
-- purchases). With many purchases, build both first without the lock, under these names; this
-- migration then finds them made (docs/deploy.md, Upgrades and migrations):
--   CREATE INDEX CONCURRENTLY "purchases_link_id_credit_time_idx" ON "purchases"("link_id", "credit_time");
--   CREATE INDEX CONCURRENTLY "purchases_offer_id_idx" ON "purchases"("offer_id");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "purchases_link_id_credit_time_idx" ON "purchases"("link_id", "credit_time");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "purchases_offer_id_idx" ON "purchases"("offer_id");
