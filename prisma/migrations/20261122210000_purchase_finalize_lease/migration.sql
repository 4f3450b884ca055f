-- Issue 9: one FinalizeTxn per order. The caller capturing an order holds this lease (set on
-- the database's clock) around the platform call only; every other caller answers the state.
ALTER TABLE "purchases" ADD COLUMN "finalize_until" TIMESTAMPTZ(6);
