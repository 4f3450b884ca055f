-- Issue 16: the audit log (docs/audit-log.md). Every management and operator write, and every
-- failed authentication, one row each; written by the audit interceptor after the call.
-- CreateEnum
CREATE TYPE "AuditActorType" AS ENUM ('API_KEY', 'SESSION', 'OPERATOR', 'NONE');

-- CreateTable
CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL,
    "account_id" TEXT,
    "actor_type" "AuditActorType" NOT NULL,
    "actor" TEXT NOT NULL,
    "session_id" TEXT,
    "method" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "changed_fields" TEXT[],
    "request" JSONB NOT NULL,
    "address" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "code" INTEGER NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_account_id_create_time_id_idx" ON "audit_events"("account_id", "create_time" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_events_create_time_id_idx" ON "audit_events"("create_time" DESC, "id" DESC);


-- Append-only: no row is ever changed, and rows are deleted only by the retention purge, which
-- sets `encore.audit_purge` to 'on' for its own transaction (store/audit-events.ts). A bug, or a
-- hand-written statement, that tries anything else is refused by the database itself.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('encore.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_events_append_only"
  BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
