CREATE INDEX "alert_outbox_alert_idx" ON "alert_outbox" USING btree ("alert_id");--> statement-breakpoint
CREATE INDEX "alert_outbox_event_idx" ON "alert_outbox" USING btree ("event_id");