CREATE TABLE "oncall_feed_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid,
	"user_id" uuid,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oncall_feed_tokens_owner" CHECK (("oncall_feed_tokens"."schedule_id" is null) <> ("oncall_feed_tokens"."user_id" is null))
);
--> statement-breakpoint
CREATE TABLE "oncall_overrides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oncall_overrides_range" CHECK ("oncall_overrides"."ends_at" > "oncall_overrides"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "oncall_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"time_zone" text NOT NULL,
	"layers" jsonb NOT NULL,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_lc" text GENERATED ALWAYS AS (lower("oncall_schedules"."name")) STORED
);
--> statement-breakpoint
CREATE TABLE "oncall_swaps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"first_layer" text NOT NULL,
	"first_start" timestamp with time zone NOT NULL,
	"second_layer" text NOT NULL,
	"second_start" timestamp with time zone NOT NULL,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oncall_feed_tokens" ADD CONSTRAINT "oncall_feed_tokens_schedule_id_oncall_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."oncall_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_feed_tokens" ADD CONSTRAINT "oncall_feed_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_feed_tokens" ADD CONSTRAINT "oncall_feed_tokens_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_overrides" ADD CONSTRAINT "oncall_overrides_schedule_id_oncall_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."oncall_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_overrides" ADD CONSTRAINT "oncall_overrides_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_overrides" ADD CONSTRAINT "oncall_overrides_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_schedules" ADD CONSTRAINT "oncall_schedules_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_swaps" ADD CONSTRAINT "oncall_swaps_schedule_id_oncall_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."oncall_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oncall_swaps" ADD CONSTRAINT "oncall_swaps_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oncall_feed_tokens_hash_idx" ON "oncall_feed_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oncall_feed_tokens_schedule_idx" ON "oncall_feed_tokens" USING btree ("schedule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oncall_feed_tokens_user_idx" ON "oncall_feed_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oncall_overrides_schedule_idx" ON "oncall_overrides" USING btree ("schedule_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oncall_schedules_name_lower_idx" ON "oncall_schedules" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "oncall_schedules_created_at_idx" ON "oncall_schedules" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "oncall_swaps_schedule_idx" ON "oncall_swaps" USING btree ("schedule_id");