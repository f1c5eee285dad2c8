CREATE TABLE "metric_samples" (
	"server_id" uuid NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"values" real[] NOT NULL,
	CONSTRAINT "metric_samples_server_id_ts_pk" PRIMARY KEY("server_id","ts")
);
--> statement-breakpoint
CREATE TABLE "metric_series" (
	"server_id" uuid PRIMARY KEY NOT NULL,
	"keys" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hostname" text NOT NULL,
	"ipaddress" text NOT NULL,
	"operating_system" text NOT NULL,
	"agent_port" integer DEFAULT 9100 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"suppress_alarm" text DEFAULT 'no' NOT NULL,
	"is_agent_configured" boolean DEFAULT false NOT NULL,
	"is_agent_installed" boolean DEFAULT false NOT NULL,
	"demo_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text DEFAULT 'unknown' NOT NULL,
	"state_changed_at" timestamp with time zone,
	"last_scraped_at" timestamp with time zone,
	"last_error" text,
	"cpu_usage" double precision,
	"memory_usage" double precision,
	"disk_usage" double precision,
	"network_usage" double precision,
	"swap_usage" double precision,
	"uptime" double precision,
	"cpu_load1" double precision,
	"cpu_load5" double precision,
	"cpu_load15" double precision,
	"cpu_cores" double precision,
	"memory_saturation" double precision,
	"memory_total" double precision,
	"swap_total" double precision,
	"hostname_lc" text GENERATED ALWAYS AS (lower("servers"."hostname")) STORED
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"server_id" uuid NOT NULL,
	"service_name" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"service_name_lc" text GENERATED ALWAYS AS (lower("services"."service_name")) STORED
);
--> statement-breakpoint
ALTER TABLE "metric_samples" ADD CONSTRAINT "metric_samples_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metric_series" ADD CONSTRAINT "metric_series_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "metric_samples_ts_idx" ON "metric_samples" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "servers_created_at_idx" ON "servers" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "servers_hostname_lc_trgm_idx" ON "servers" USING gin ("hostname_lc" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "servers_target_idx" ON "servers" USING btree ("ipaddress","agent_port");--> statement-breakpoint
CREATE UNIQUE INDEX "servers_demo_key_idx" ON "servers" USING btree ("demo_key");--> statement-breakpoint
CREATE UNIQUE INDEX "services_server_name_idx" ON "services" USING btree ("server_id","service_name");--> statement-breakpoint
CREATE INDEX "services_status_idx" ON "services" USING btree ("status");--> statement-breakpoint
CREATE INDEX "services_created_at_idx" ON "services" USING btree ("created_at");