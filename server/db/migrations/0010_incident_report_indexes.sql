CREATE INDEX "alert_events_at_idx" ON "alert_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "alerts_resolved_at_idx" ON "alerts" USING btree ("resolved_at");