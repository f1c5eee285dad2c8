ALTER TABLE "alerts" ALTER COLUMN "server_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "observed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "stale_from" text;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_meta_idx" ON "alerts" USING btree ("type","subject") WHERE "alerts"."server_id" is null and "alerts"."status" <> 'resolved';--> statement-breakpoint
-- Servers already monitored count as observed when they were last scraped (or changed state).
UPDATE "servers" SET "observed_at" = coalesce("last_scraped_at", "state_changed_at") WHERE "state" IN ('up', 'down');