CREATE TABLE "metric_rollups" (
	"server_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"values" real[] NOT NULL,
	CONSTRAINT "metric_rollups_server_id_bucket_pk" PRIMARY KEY("server_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "metric_rollups" ADD CONSTRAINT "metric_rollups_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "metric_rollups_bucket_idx" ON "metric_rollups" USING btree ("bucket");