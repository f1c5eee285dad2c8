CREATE TABLE "alert_counts" (
	"hostname" text NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "alerts_created_at_idx";--> statement-breakpoint
DROP INDEX "alerts_server_created_idx";--> statement-breakpoint
DROP INDEX "alerts_status_created_idx";--> statement-breakpoint
CREATE INDEX "alerts_created_at_idx" ON "alerts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "alerts_server_created_idx" ON "alerts" USING btree ("server_id","created_at","id");--> statement-breakpoint
CREATE INDEX "alerts_status_created_idx" ON "alerts" USING btree ("status","created_at","id");--> statement-breakpoint
-- Hand-written below (drizzle-kit does not model triggers): keep alert_counts exact in the same
-- statement that changes alerts. Only delta rows are inserted, grouped per statement, so two
-- writers never lock the same row here; AlertEvaluator.compactCounts folds them together.
CREATE FUNCTION "alert_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_counts (hostname, status, n) SELECT hostname, status, count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO alert_counts (hostname, status, n) SELECT hostname, status, -count(*) FROM old_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO alert_counts (hostname, status, n)
    SELECT hostname, status, sum(d) FROM (
      SELECT hostname, status, 1 AS d FROM new_rows
      UNION ALL
      SELECT hostname, status, -1 FROM old_rows
    ) x GROUP BY 1, 2 HAVING sum(d) <> 0;
  ELSE
    DELETE FROM alert_counts;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "alert_counts_insert" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "alert_counts_track"();--> statement-breakpoint
CREATE TRIGGER "alert_counts_update" AFTER UPDATE ON "alerts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "alert_counts_track"();--> statement-breakpoint
CREATE TRIGGER "alert_counts_delete" AFTER DELETE ON "alerts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "alert_counts_track"();--> statement-breakpoint
CREATE TRIGGER "alert_counts_truncate" AFTER TRUNCATE ON "alerts" FOR EACH STATEMENT EXECUTE FUNCTION "alert_counts_track"();--> statement-breakpoint
INSERT INTO "alert_counts" ("hostname", "status", "n") SELECT "hostname", "status", count(*) FROM "alerts" GROUP BY 1, 2;
