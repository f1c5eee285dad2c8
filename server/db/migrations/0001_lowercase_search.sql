DROP INDEX "users_username_trgm_idx";--> statement-breakpoint
DROP INDEX "users_email_trgm_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username_lc" text GENERATED ALWAYS AS (lower("users"."username")) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_lc" text GENERATED ALWAYS AS (lower("users"."email")) STORED;--> statement-breakpoint
CREATE INDEX "users_username_lc_trgm_idx" ON "users" USING gin ("username_lc" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_lc_trgm_idx" ON "users" USING gin ("email_lc" gin_trgm_ops);