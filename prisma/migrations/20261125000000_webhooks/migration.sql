-- Issue 16: webhook endpoints, the event outbox and its deliveries; a per-campaign runway alert.
-- CreateEnum
CREATE TYPE "WebhookEndpointState" AS ENUM ('ACTIVE', 'DISABLED');

-- CreateEnum
CREATE TYPE "WebhookDeliveryState" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED');

-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "runway_alert_days" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "runway_low" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "event_types" TEXT[],
    "secret_encrypted" BYTEA NOT NULL,
    "previous_secret_encrypted" BYTEA,
    "previous_secret_expire_time" TIMESTAMPTZ(6),
    "state" "WebhookEndpointState" NOT NULL DEFAULT 'ACTIVE',
    "disabled_reason" TEXT NOT NULL DEFAULT '',
    "disable_time" TIMESTAMPTZ(6),
    "failing_since" TIMESTAMPTZ(6),
    "version" INTEGER NOT NULL DEFAULT 1,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "update_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "state" "WebhookDeliveryState" NOT NULL DEFAULT 'PENDING',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_time" TIMESTAMPTZ(6),
    "lease_until" TIMESTAMPTZ(6),
    "last_attempt_time" TIMESTAMPTZ(6),
    "last_status_code" INTEGER NOT NULL DEFAULT 0,
    "last_latency_ms" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT NOT NULL DEFAULT '',
    "response_excerpt" TEXT NOT NULL DEFAULT '',
    "create_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_account_id_idx" ON "webhook_endpoints"("account_id");

-- CreateIndex
CREATE INDEX "webhook_events_account_id_create_time_idx" ON "webhook_events"("account_id", "create_time");

-- CreateIndex
CREATE INDEX "webhook_deliveries_state_next_attempt_time_idx" ON "webhook_deliveries"("state", "next_attempt_time");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_create_time_idx" ON "webhook_deliveries"("endpoint_id", "create_time");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_key" ON "webhook_deliveries"("event_id", "endpoint_id");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

