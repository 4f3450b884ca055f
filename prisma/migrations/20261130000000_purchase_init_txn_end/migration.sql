-- How a begin's InitTxn ended, so a begin repeated with the same requestId answers from the row
-- (docs/settlement.md, "A begin repeated").

-- AlterTable
ALTER TABLE "purchases" ADD COLUMN     "init_txn_end_time" TIMESTAMPTZ(6);

