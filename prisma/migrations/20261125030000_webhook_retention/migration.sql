-- CreateIndex
CREATE INDEX "webhook_events_create_time_idx" ON "webhook_events"("create_time");
