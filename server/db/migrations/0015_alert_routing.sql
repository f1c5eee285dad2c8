CREATE TABLE "alert_flaps" (
	"rule_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"server_id" uuid NOT NULL,
	"transitions" timestamp with time zone[] DEFAULT '{}'::timestamptz[] NOT NULL,
	"flapping_since" timestamp with time zone,
	CONSTRAINT "alert_flaps_rule_id_subject_pk" PRIMARY KEY("rule_id","subject")
);
--> statement-breakpoint
CREATE TABLE "maintenance_windows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"server_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"matchers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"rrule" text,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_lc" text GENERATED ALWAYS AS (lower("maintenance_windows"."name")) STORED
);
--> statement-breakpoint
CREATE TABLE "silences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"matchers" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"comment" text NOT NULL,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_outbox" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD COLUMN "user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD COLUMN "step" integer;--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "suppress_on_host_down" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "min_notify_interval_seconds" integer;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "flap_transitions" integer;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "flap_window_seconds" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "mute" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "mute_ref" uuid;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "mute_label" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "host_down_alert_id" uuid;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "next_action_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "escalation_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "last_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "ack_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_groups" ADD COLUMN "escalation_steps" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_groups" ADD COLUMN "repeat_interval_seconds" integer;--> statement-breakpoint
ALTER TABLE "notification_groups" ADD COLUMN "ack_reminder_seconds" integer;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "labels" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_flaps" ADD CONSTRAINT "alert_flaps_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_flaps" ADD CONSTRAINT "alert_flaps_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "silences" ADD CONSTRAINT "silences_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_windows_created_at_idx" ON "maintenance_windows" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "silences_ends_at_idx" ON "silences" USING btree ("ends_at");--> statement-breakpoint
CREATE INDEX "silences_created_at_idx" ON "silences" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "alerts_next_action_idx" ON "alerts" USING btree ("next_action_at") WHERE "alerts"."next_action_at" is not null;--> statement-breakpoint
CREATE INDEX "alerts_host_down_idx" ON "alerts" USING btree ("host_down_alert_id") WHERE "alerts"."host_down_alert_id" is not null;--> statement-breakpoint
-- Open alerts from before routing were notified when they fired (or never will be): their
-- resolution is sent, as it was, and a repeat interval counts from their firing.
UPDATE "alerts" SET "notified_at" = "created_at", "last_sent_at" = "created_at" WHERE "status" <> 'resolved';
