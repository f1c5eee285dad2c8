CREATE TABLE "alert_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"server_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_configs_server_id_key" UNIQUE("server_id")
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"note" text,
	"user_id" uuid,
	"username" text
);
--> statement-breakpoint
CREATE TABLE "alert_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"transition" text NOT NULL,
	"notification_group_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert_pending" (
	"rule_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"server_id" uuid NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_pending_rule_id_subject_pk" PRIMARY KEY("rule_id","subject")
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"config_id" uuid NOT NULL,
	"server_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"metric" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"time_limit" integer NOT NULL,
	"threshold" integer,
	"severity" text NOT NULL,
	"notification_group_id" uuid,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"server_id" uuid NOT NULL,
	"rule_id" uuid,
	"subject" text DEFAULT '' NOT NULL,
	"hostname" text NOT NULL,
	"instance" text NOT NULL,
	"alertname" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'firing' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"mountpoint" text,
	"volume" text,
	"service" text,
	"value" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"snoozed_until" timestamp with time zone,
	"hostname_lc" text GENERATED ALWAYS AS (lower("alerts"."hostname")) STORED,
	"search_lc" text GENERATED ALWAYS AS (lower("alerts"."hostname" || ' ' || "alerts"."instance" || ' ' || "alerts"."alertname" || ' ' || coalesce("alerts"."service", '') || ' ' || "alerts"."summary")) STORED
);
--> statement-breakpoint
CREATE TABLE "notification_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"email_enabled" boolean DEFAULT true NOT NULL,
	"email_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"slack_enabled" boolean DEFAULT false NOT NULL,
	"slack_channel" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_lc" text GENERATED ALWAYS AS (lower("notification_groups"."name")) STORED
);
--> statement-breakpoint
ALTER TABLE "alert_configs" ADD CONSTRAINT "alert_configs_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD CONSTRAINT "alert_outbox_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD CONSTRAINT "alert_outbox_event_id_alert_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alert_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD CONSTRAINT "alert_outbox_notification_group_id_notification_groups_id_fk" FOREIGN KEY ("notification_group_id") REFERENCES "public"."notification_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_pending" ADD CONSTRAINT "alert_pending_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_pending" ADD CONSTRAINT "alert_pending_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_config_id_alert_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."alert_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_notification_group_id_notification_groups_id_fk" FOREIGN KEY ("notification_group_id") REFERENCES "public"."notification_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_events_alert_idx" ON "alert_events" USING btree ("alert_id","at");--> statement-breakpoint
CREATE INDEX "alert_outbox_pending_idx" ON "alert_outbox" USING btree ("created_at") WHERE "alert_outbox"."processed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rules_config_name_idx" ON "alert_rules" USING btree ("config_id","name");--> statement-breakpoint
CREATE INDEX "alert_rules_server_idx" ON "alert_rules" USING btree ("server_id");--> statement-breakpoint
CREATE INDEX "alert_rules_group_idx" ON "alert_rules" USING btree ("notification_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_idx" ON "alerts" USING btree ("server_id","rule_id","subject") WHERE "alerts"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_created_at_idx" ON "alerts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "alerts_server_created_idx" ON "alerts" USING btree ("server_id","created_at");--> statement-breakpoint
CREATE INDEX "alerts_status_created_idx" ON "alerts" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "alerts_hostname_lc_trgm_idx" ON "alerts" USING gin ("hostname_lc" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "alerts_search_lc_trgm_idx" ON "alerts" USING gin ("search_lc" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "notification_groups_name_lc_idx" ON "notification_groups" USING btree ("name_lc");--> statement-breakpoint
CREATE INDEX "notification_groups_created_at_idx" ON "notification_groups" USING btree ("created_at");