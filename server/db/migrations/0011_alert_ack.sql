ALTER TABLE "alerts" ADD COLUMN "ack_user_id" uuid;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "ack_username" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "ack_note" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "ack_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "ack_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_ack_user_id_users_id_fk" FOREIGN KEY ("ack_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerts_ack_until_idx" ON "alerts" USING btree ("ack_until") WHERE "alerts"."ack_until" is not null;