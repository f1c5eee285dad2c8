CREATE TABLE "server_forecasts" (
	"server_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"hours_left" double precision,
	"full_at" timestamp with time zone,
	"slope_per_hour" double precision NOT NULL,
	"fitted_now" double precision NOT NULL,
	"points" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "server_forecasts_server_id_metric_pk" PRIMARY KEY("server_id","metric")
);
--> statement-breakpoint
ALTER TABLE "server_forecasts" ADD CONSTRAINT "server_forecasts_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: servers configured before forecast rules existed get them too (issue 16), after their own rules.
INSERT INTO "alert_rules" ("config_id", "server_id", "name", "description", "type", "metric", "time_limit", "threshold", "severity", "position")
SELECT c."id", c."server_id", d.name, d.description, 'resouce_alert', d.metric, 300, d.threshold, 'warning', d.position
FROM "alert_configs" c CROSS JOIN (VALUES
  ('disk_full_forecast', 'Disk full within the threshold (hours), by the trend of the last 6 hours', 'disk_forecast', 24, 6),
  ('memory_exhausted_forecast', 'Memory exhausted within the threshold (hours), by the trend of the last 6 hours', 'memory_forecast', 6, 7)
) AS d(name, description, metric, threshold, position)
ON CONFLICT ("config_id", "name") DO NOTHING;
