CREATE TABLE "page_action_uses" (
	"token_id" text PRIMARY KEY NOT NULL,
	"alert_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"action" text NOT NULL,
	"via" text NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "page_action_uses_expires_at_idx" ON "page_action_uses" USING btree ("expires_at");