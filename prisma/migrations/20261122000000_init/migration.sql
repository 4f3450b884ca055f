-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('OWNER', 'ADMIN', 'BILLING', 'VIEWER');

-- CreateEnum
CREATE TYPE "LinkState" AS ENUM ('ACTIVE', 'CREDENTIAL_INVALID');

-- CreateEnum
CREATE TYPE "FundingVisibility" AS ENUM ('EXACT_BALANCE', 'RUNWAY', 'FUNDED_ONLY');

-- CreateEnum
CREATE TYPE "CampaignState" AS ENUM ('VERIFYING', 'NEEDS_REVIEW', 'IN_REVIEW', 'DECLINED', 'VERIFIED', 'REVOKED');

-- CreateEnum
CREATE TYPE "PurchaseState" AS ENUM ('INITIATED', 'AUTHORIZED', 'CREDITED', 'CANCELLED', 'FAILED');

-- CreateEnum
CREATE TYPE "ResourceKind" AS ENUM ('SERVER', 'DISK', 'ADDRESS');

-- CreateEnum
CREATE TYPE "ResourceState" AS ENUM ('RUNNING', 'STOPPED');

-- CreateEnum
CREATE TYPE "LedgerType" AS ENUM ('PLAYER_TOP_UP', 'DEVELOPER_TOP_UP', 'USAGE');

-- CreateEnum
CREATE TYPE "CheckoutState" AS ENUM ('OPEN', 'COMPLETE', 'EXPIRED');

-- CreateEnum
CREATE TYPE "TransferMode" AS ENUM ('CONVERT', 'MOVE');

-- CreateEnum
CREATE TYPE "TransferState" AS ENUM ('RUNNING', 'AWAITING_ACKNOWLEDGEMENT', 'SUCCEEDED', 'FAILED');

-- CreateEnum
CREATE TYPE "TransferItemState" AS ENUM ('PENDING', 'MOVED', 'AWAITING_ACKNOWLEDGEMENT', 'FRESH_INSTALL', 'FAILED');

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "request_id" TEXT,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "key_hash" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "members" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expire_time" TIMESTAMPTZ(6) NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "games" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "distributor_links" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "publisher_key_encrypted" BYTEA NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "state" "LinkState" NOT NULL DEFAULT 'ACTIVE',
    "outstanding_nanos" BIGINT NOT NULL DEFAULT 0,
    "reserved_nanos" BIGINT NOT NULL DEFAULT 0,
    "outstanding_limit_nanos" BIGINT NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "update_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "distributor_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settlements" (
    "id" TEXT NOT NULL,
    "link_id" TEXT NOT NULL,
    "amount_nanos" BIGINT NOT NULL,
    "reference" TEXT NOT NULL,
    "request_id" TEXT,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "settlements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaigns" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "link_id" TEXT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "funding_visibility" "FundingVisibility" NOT NULL,
    "campaign_key" TEXT NOT NULL,
    "state" "CampaignState" NOT NULL DEFAULT 'VERIFYING',
    "key_owns_app" BOOLEAN NOT NULL DEFAULT false,
    "removed_from_sale" BOOLEAN NOT NULL DEFAULT false,
    "ending_announcement" TEXT NOT NULL DEFAULT '',
    "explanation" TEXT NOT NULL DEFAULT '',
    "verify_time" TIMESTAMPTZ(6),
    "verify_lease_until" TIMESTAMPTZ(6),
    "project_id" TEXT NOT NULL,
    "ready_time" TIMESTAMPTZ(6),
    "version" INTEGER NOT NULL DEFAULT 1,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "update_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offers" (
    "id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "price_nanos" BIGINT NOT NULL,
    "credit_nanos" BIGINT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "version" INTEGER NOT NULL DEFAULT 1,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "update_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchases" (
    "id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "offer_id" TEXT NOT NULL,
    "link_id" TEXT NOT NULL,
    "order_id" BIGINT NOT NULL,
    "trans_id" TEXT,
    "player_id" TEXT NOT NULL,
    "state" "PurchaseState" NOT NULL DEFAULT 'INITIATED',
    "price_nanos" BIGINT NOT NULL,
    "credit_nanos" BIGINT NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "language" TEXT NOT NULL,
    "lease_until" TIMESTAMPTZ(6),
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "update_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "credit_time" TIMESTAMPTZ(6),

    CONSTRAINT "purchases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase_requests" (
    "campaign_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "purchase_id" TEXT,
    "refused" BOOLEAN NOT NULL DEFAULT false,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchase_requests_pkey" PRIMARY KEY ("campaign_id","request_id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "top_up_only" BOOLEAN NOT NULL DEFAULT false,
    "balance_nanos" BIGINT NOT NULL DEFAULT 0,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resources" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "kind" "ResourceKind" NOT NULL,
    "region" TEXT NOT NULL,
    "game_id" TEXT,
    "client_facing" BOOLEAN NOT NULL DEFAULT false,
    "movable" BOOLEAN NOT NULL DEFAULT true,
    "state" "ResourceState" NOT NULL DEFAULT 'RUNNING',
    "disk_copyable" BOOLEAN NOT NULL DEFAULT true,
    "hourly_price_nanos" BIGINT NOT NULL,
    "metered_until" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "regions" (
    "name" TEXT NOT NULL,
    "listing_fails" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "regions_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "type" "LedgerType" NOT NULL,
    "amount_nanos" BIGINT NOT NULL,
    "purchase_id" TEXT,
    "checkout_session_id" TEXT,
    "resource_id" TEXT,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "checkout_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "project_id" TEXT,
    "amount_nanos" BIGINT NOT NULL,
    "state" "CheckoutState" NOT NULL DEFAULT 'OPEN',
    "request_id" TEXT,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transfers" (
    "id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "source_project_id" TEXT NOT NULL,
    "mode" "TransferMode" NOT NULL,
    "acknowledge_warnings" BOOLEAN NOT NULL,
    "request_id" TEXT,
    "state" "TransferState" NOT NULL DEFAULT 'RUNNING',
    "error" TEXT NOT NULL DEFAULT '',
    "lease_until" TIMESTAMPTZ(6),
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "end_time" TIMESTAMPTZ(6),

    CONSTRAINT "transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transfer_items" (
    "transfer_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "state" "TransferItemState" NOT NULL DEFAULT 'PENDING',
    "detail" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "transfer_items_pkey" PRIMARY KEY ("transfer_id","resource_id")
);

-- CreateTable
CREATE TABLE "operator_settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "default_outstanding_limit_nanos" BIGINT NOT NULL DEFAULT 0,
    "allowed_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "update_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_settings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_request_id_key" ON "accounts"("request_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "members_account_id_email_key" ON "members"("account_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");

-- CreateIndex
CREATE INDEX "games_account_id_idx" ON "games"("account_id");

-- CreateIndex
CREATE INDEX "distributor_links_account_id_idx" ON "distributor_links"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "settlements_request_id_key" ON "settlements"("request_id");

-- CreateIndex
CREATE INDEX "settlements_link_id_create_time_idx" ON "settlements"("link_id", "create_time");

-- CreateIndex
CREATE UNIQUE INDEX "campaigns_app_id_key" ON "campaigns"("app_id");

-- CreateIndex
CREATE UNIQUE INDEX "campaigns_campaign_key_key" ON "campaigns"("campaign_key");

-- CreateIndex
CREATE UNIQUE INDEX "campaigns_project_id_key" ON "campaigns"("project_id");

-- CreateIndex
CREATE INDEX "campaigns_account_id_create_time_idx" ON "campaigns"("account_id", "create_time");

-- CreateIndex
CREATE INDEX "campaigns_state_idx" ON "campaigns"("state");

-- CreateIndex
CREATE INDEX "offers_campaign_id_create_time_idx" ON "offers"("campaign_id", "create_time");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_order_id_key" ON "purchases"("order_id");

-- CreateIndex
CREATE INDEX "purchases_campaign_id_create_time_idx" ON "purchases"("campaign_id", "create_time" DESC);

-- CreateIndex
CREATE INDEX "purchases_state_create_time_idx" ON "purchases"("state", "create_time");

-- CreateIndex
CREATE INDEX "projects_account_id_idx" ON "projects"("account_id");

-- CreateIndex
CREATE INDEX "resources_project_id_region_idx" ON "resources"("project_id", "region");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_purchase_id_key" ON "ledger_entries"("purchase_id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_checkout_session_id_key" ON "ledger_entries"("checkout_session_id");

-- CreateIndex
CREATE INDEX "ledger_entries_project_id_create_time_idx" ON "ledger_entries"("project_id", "create_time" DESC);

-- CreateIndex
CREATE INDEX "ledger_entries_project_id_type_create_time_idx" ON "ledger_entries"("project_id", "type", "create_time");

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_request_id_key" ON "checkout_sessions"("request_id");

-- CreateIndex
CREATE INDEX "transfers_state_idx" ON "transfers"("state");

-- CreateIndex
CREATE UNIQUE INDEX "transfers_campaign_id_request_id_key" ON "transfers"("campaign_id", "request_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "members" ADD CONSTRAINT "members_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "distributor_links" ADD CONSTRAINT "distributor_links_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "distributor_links"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "distributor_links"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offers" ADD CONSTRAINT "offers_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "offers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "distributor_links"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchase_requests" ADD CONSTRAINT "purchase_requests_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "projects" ADD CONSTRAINT "projects_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resources" ADD CONSTRAINT "resources_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resources" ADD CONSTRAINT "resources_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_checkout_session_id_fkey" FOREIGN KEY ("checkout_session_id") REFERENCES "checkout_sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_items" ADD CONSTRAINT "transfer_items_transfer_id_fkey" FOREIGN KEY ("transfer_id") REFERENCES "transfers"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Invariants the code relies on, held by the database too.
ALTER TABLE "distributor_links" ADD CONSTRAINT "distributor_links_amounts_check"
  CHECK ("outstanding_nanos" >= 0 AND "reserved_nanos" >= 0 AND "outstanding_limit_nanos" >= 0);
ALTER TABLE "offers" ADD CONSTRAINT "offers_amounts_check"
  CHECK ("price_nanos" > 0 AND "credit_nanos" > 0 AND "credit_nanos" <= "price_nanos");
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_amount_check" CHECK ("amount_nanos" > 0);
ALTER TABLE "operator_settings" ADD CONSTRAINT "operator_settings_singleton_check" CHECK ("id" = 1);

-- The operator's settings always exist.
INSERT INTO "operator_settings" ("id", "update_time") VALUES (1, now());
