CREATE TABLE "check_daily" (
	"check_id" uuid NOT NULL,
	"day" date NOT NULL,
	"total" integer NOT NULL,
	"up" integer NOT NULL,
	"latency_sum" double precision DEFAULT 0 NOT NULL,
	"latency_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "check_daily_check_id_day_pk" PRIMARY KEY("check_id","day")
);
--> statement-breakpoint
CREATE TABLE "check_hourly" (
	"check_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"total" integer NOT NULL,
	"up" integer NOT NULL,
	"latency_sum" double precision DEFAULT 0 NOT NULL,
	"latency_count" integer DEFAULT 0 NOT NULL,
	"latency_max" real,
	CONSTRAINT "check_hourly_check_id_bucket_pk" PRIMARY KEY("check_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "check_pending" (
	"rule_id" uuid PRIMARY KEY NOT NULL,
	"check_id" uuid NOT NULL,
	"since" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"check_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"time_limit" integer NOT NULL,
	"threshold" integer,
	"severity" text NOT NULL,
	"notification_group_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_samples" (
	"check_id" uuid NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"up" boolean NOT NULL,
	"latency_ms" real,
	"status_code" smallint,
	"cert_days_left" real,
	"error" text,
	CONSTRAINT "check_samples_check_id_ts_pk" PRIMARY KEY("check_id","ts")
);
--> statement-breakpoint
CREATE TABLE "checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"url" text,
	"host" text,
	"port" integer,
	"method" text DEFAULT 'GET' NOT NULL,
	"expected_status" text DEFAULT '200-299' NOT NULL,
	"keyword" text,
	"keyword_mode" text DEFAULT 'contains' NOT NULL,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"follow_redirects" boolean DEFAULT true NOT NULL,
	"ignore_tls_errors" boolean DEFAULT false NOT NULL,
	"record_type" text,
	"expected_answer" text,
	"resolver" text,
	"interval_s" integer DEFAULT 60 NOT NULL,
	"timeout_s" integer DEFAULT 10 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'unknown' NOT NULL,
	"state_changed_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"last_error" text,
	"latency_ms" double precision,
	"status_code" integer,
	"cert_expires_at" timestamp with time zone,
	"cert_problem" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_lc" text GENERATED ALWAYS AS (lower("checks"."name")) STORED,
	"target_lc" text GENERATED ALWAYS AS (lower("checks"."target")) STORED
);
--> statement-breakpoint
DROP INDEX "alerts_open_meta_idx";--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "check_id" uuid;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "check_rule_id" uuid;--> statement-breakpoint
ALTER TABLE "check_daily" ADD CONSTRAINT "check_daily_check_id_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_hourly" ADD CONSTRAINT "check_hourly_check_id_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_pending" ADD CONSTRAINT "check_pending_rule_id_check_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."check_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_pending" ADD CONSTRAINT "check_pending_check_id_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_rules" ADD CONSTRAINT "check_rules_check_id_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_rules" ADD CONSTRAINT "check_rules_notification_group_id_notification_groups_id_fk" FOREIGN KEY ("notification_group_id") REFERENCES "public"."notification_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_samples" ADD CONSTRAINT "check_samples_check_id_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checks" ADD CONSTRAINT "checks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_daily_day_idx" ON "check_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "check_hourly_bucket_idx" ON "check_hourly" USING btree ("bucket");--> statement-breakpoint
CREATE UNIQUE INDEX "check_rules_check_kind_idx" ON "check_rules" USING btree ("check_id","kind");--> statement-breakpoint
CREATE INDEX "check_rules_group_idx" ON "check_rules" USING btree ("notification_group_id");--> statement-breakpoint
CREATE INDEX "check_samples_ts_idx" ON "check_samples" USING btree ("ts");--> statement-breakpoint
CREATE UNIQUE INDEX "checks_name_lc_idx" ON "checks" USING btree ("name_lc");--> statement-breakpoint
CREATE INDEX "checks_created_at_idx" ON "checks" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "checks_name_lc_trgm_idx" ON "checks" USING gin ("name_lc" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "checks_target_lc_trgm_idx" ON "checks" USING gin ("target_lc" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_check_id_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_check_rule_id_check_rules_id_fk" FOREIGN KEY ("check_rule_id") REFERENCES "public"."check_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_check_open_idx" ON "alerts" USING btree ("check_id","check_rule_id","subject") WHERE "alerts"."status" <> 'resolved' and "alerts"."check_id" is not null;--> statement-breakpoint
CREATE INDEX "alerts_check_created_idx" ON "alerts" USING btree ("check_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_meta_idx" ON "alerts" USING btree ("type","subject") WHERE "alerts"."server_id" is null and "alerts"."check_id" is null and "alerts"."status" <> 'resolved';--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_server_or_check" CHECK ("alerts"."server_id" is null or "alerts"."check_id" is null);