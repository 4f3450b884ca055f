-- Idempotent creates (AIP-155): CreateDistributorLink, CreateCampaign and CreateOffer remember
-- their request_id, unique per account (per campaign for offers), and a hash of the request
-- that tells a retry (same request) from a reuse of the id for a different one.
ALTER TABLE "distributor_links" ADD COLUMN "request_id" TEXT;
ALTER TABLE "distributor_links" ADD COLUMN "request_hash" TEXT;

ALTER TABLE "campaigns" ADD COLUMN "request_id" TEXT;
ALTER TABLE "campaigns" ADD COLUMN "request_hash" TEXT;

ALTER TABLE "offers" ADD COLUMN "request_id" TEXT;
ALTER TABLE "offers" ADD COLUMN "request_hash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "distributor_links_account_id_request_id_key" ON "distributor_links"("account_id", "request_id");

-- CreateIndex
CREATE UNIQUE INDEX "campaigns_account_id_request_id_key" ON "campaigns"("account_id", "request_id");

-- CreateIndex
CREATE UNIQUE INDEX "offers_campaign_id_request_id_key" ON "offers"("campaign_id", "request_id");
