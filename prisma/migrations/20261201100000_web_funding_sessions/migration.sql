-- The public funding page (docs/game-integration.md, "Funding from the web"): browsers' sessions,
-- the OpenID nonces already accepted, and the approval page of a web order.

-- AlterTable
ALTER TABLE "purchases" ADD COLUMN     "steam_url" TEXT;

-- CreateTable
CREATE TABLE "web_sessions" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "sign_in_state" TEXT,
    "steam_id" TEXT,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expire_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "web_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "openid_nonces" (
    "op_endpoint" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "openid_nonces_pkey" PRIMARY KEY ("op_endpoint","nonce")
);

-- CreateIndex
CREATE UNIQUE INDEX "web_sessions_token_hash_key" ON "web_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "web_sessions_expire_time_idx" ON "web_sessions"("expire_time");

-- CreateIndex
CREATE INDEX "openid_nonces_create_time_idx" ON "openid_nonces"("create_time");

