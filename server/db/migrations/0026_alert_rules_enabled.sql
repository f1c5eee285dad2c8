-- h14-tick3: the evaluator's grace-period statement read every rule's row on each tick (a
-- sequential scan of alert_rules, 8,000 rows at 1,000 servers). With these it reads each metric's
-- lowest enabled threshold from an index, so only servers above one are candidates, and those
-- servers' enabled rules from an index alone (server/alerting/evaluator.ts holdingNow).
CREATE INDEX "alert_rules_enabled_server_idx" ON "alert_rules" USING btree ("server_id","metric","threshold","time_limit","id") WHERE "alert_rules"."enabled";--> statement-breakpoint
CREATE INDEX "alert_rules_enabled_metric_idx" ON "alert_rules" USING btree ("metric","threshold") WHERE "alert_rules"."enabled";