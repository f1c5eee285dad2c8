-- h16-list: the checks list at 5,000 checks. uptime24h's sums kept on the check's row by the
-- result writer (server/monitoring/checks/check-store.ts keepUptime24h), read while they are the
-- current hour's; and the checks counted by row_counts' triggers like the other big lists (0024).
ALTER TABLE "checks" ADD COLUMN "up24_hour" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "checks" ADD COLUMN "up24_total" integer;--> statement-breakpoint
ALTER TABLE "checks" ADD COLUMN "up24_up" integer;--> statement-breakpoint
CREATE TRIGGER "checks_count_insert" AFTER INSERT ON "checks" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "checks_count_delete" AFTER DELETE ON "checks" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "checks_count_truncate" AFTER TRUNCATE ON "checks" FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
INSERT INTO "row_counts" ("tbl", "n") SELECT 'checks', count(*) FROM "checks";
