-- Funding from the web (docs/game-integration.md, "Funding from the web"): a campaign's public
-- page is turned on per campaign, a purchase records where it was made, and a web order whose
-- player never came back from the platform's approval page ends ABANDONED (docs/settlement.md).
-- The new enum value is not used in this migration's own transaction (PostgreSQL refuses that).

-- CreateEnum
CREATE TYPE "PurchaseChannel" AS ENUM ('GAME', 'WEB');

-- AlterEnum
ALTER TYPE "PurchaseState" ADD VALUE 'ABANDONED';

-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "web_funding_enabled" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "purchases" ADD COLUMN     "channel" "PurchaseChannel" NOT NULL DEFAULT 'GAME';

