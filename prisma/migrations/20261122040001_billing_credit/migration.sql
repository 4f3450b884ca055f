-- Billing (encore.billing.v1): credit bought through a checkout without a project is the
-- account's; a checkout session keeps the payment page its provider opened.
ALTER TABLE "accounts" ADD COLUMN "credit_nanos" BIGINT NOT NULL DEFAULT 0;

ALTER TABLE "checkout_sessions" ADD COLUMN "checkout_url" TEXT NOT NULL DEFAULT '';
