-- Failed authentications counted, not recorded one by one (docs/audit-log.md "Failed
-- authentications"): one event per address group (an IPv6 /64) and rate-limit window, the first
-- failure's, whose call_count counts every failure of the pair. Every other event stands for one
-- call (call_count 1) and has no address group, so the unique index never joins them (NULLs are
-- distinct).
-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "address_group" TEXT,
ADD COLUMN     "call_count" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "window_start" TIMESTAMPTZ(6);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_address_group_window_start_key" ON "audit_events"("address_group", "window_start");

-- Still append-only, with one exception: a failed authentication's event may have its call_count
-- raised, and nothing else of it changed (the upsert in store/audit-events.ts). Every other
-- UPDATE, and every DELETE but the retention purge's, is refused as before.
CREATE OR REPLACE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('encore.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.address_group IS NOT NULL AND NEW.call_count > OLD.call_count
     AND to_jsonb(NEW) - 'call_count' = to_jsonb(OLD) - 'call_count' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
