ALTER TABLE "alerts" ADD COLUMN "source" text DEFAULT 'opsdeck' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "labels" jsonb;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "generator_url" text;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_fingerprint_open_idx" ON "alerts" USING btree ("fingerprint") WHERE "alerts"."fingerprint" is not null and "alerts"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_fingerprint_idx" ON "alerts" USING btree ("fingerprint","created_at") WHERE "alerts"."fingerprint" is not null;--> statement-breakpoint
CREATE INDEX "alerts_updated_at_idx" ON "alerts" USING btree ("updated_at");