-- Hand-written (drizzle-kit models neither functions nor triggers). Lists as people type into
-- them (issue 17 §4): a text's 1- and 2-character substrings, GIN-indexed beside the
-- trigram indexes, so `contains` with one or two characters is an index lookup
-- (`opsdeck_short_grams(x) @> array[needle]`) instead of a pass over every row.
-- PL/pgSQL, not SQL: a SQL function with generate_series and array_agg cost 160 µs a call on
-- PGlite, this 22 µs (string_to_array(t, NULL) splits into characters in C). Duplicates stay:
-- GIN keeps each key once per row.
CREATE OR REPLACE FUNCTION "opsdeck_short_grams"(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 2000 AS $$
DECLARE
  grams text[] := string_to_array(t, NULL);
BEGIN
  FOR i IN 1 .. length(t) - 1 LOOP
    grams := grams || substr(t, i, 2);
  END LOOP;
  RETURN grams;
END $$;--> statement-breakpoint
CREATE TABLE "row_counts" (
	"tbl" text NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "row_counts_tbl_idx" ON "row_counts" USING btree ("tbl");--> statement-breakpoint
CREATE INDEX "command_history_username_trgm_idx" ON "command_history" USING gin (lower("username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "command_history_username_grams_idx" ON "command_history" USING gin (opsdeck_short_grams(lower("username")));--> statement-breakpoint
CREATE INDEX "command_history_command_trgm_idx" ON "command_history" USING gin (lower("command") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "command_history_command_grams_idx" ON "command_history" USING gin (opsdeck_short_grams(lower("command")));--> statement-breakpoint
CREATE INDEX "notification_groups_name_lc_trgm_idx" ON "notification_groups" USING gin ("name_lc" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "notification_groups_name_lc_grams_idx" ON "notification_groups" USING gin (opsdeck_short_grams("name_lc"));--> statement-breakpoint
CREATE INDEX "servers_hostname_lc_grams_idx" ON "servers" USING gin (opsdeck_short_grams("hostname_lc"));--> statement-breakpoint
CREATE INDEX "servers_ipaddress_trgm_idx" ON "servers" USING gin ("ipaddress" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "servers_ipaddress_grams_idx" ON "servers" USING gin (opsdeck_short_grams("ipaddress"));--> statement-breakpoint
CREATE INDEX "services_name_lc_trgm_idx" ON "services" USING gin ("service_name_lc" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "services_name_lc_grams_idx" ON "services" USING gin (opsdeck_short_grams("service_name_lc"));--> statement-breakpoint
CREATE INDEX "users_username_lc_grams_idx" ON "users" USING gin (opsdeck_short_grams("username_lc"));--> statement-breakpoint
CREATE INDEX "users_email_lc_grams_idx" ON "users" USING gin (opsdeck_short_grams("email_lc"));
--> statement-breakpoint
-- Exact row counts of the big lists' tables without a pass over them: statement triggers insert
-- delta rows only (+n, -n), so concurrent writers never wait on each other; the count is sum(n),
-- folded into one row by the reader when deltas pile up (server/db/row-counts.ts).
CREATE OR REPLACE FUNCTION "row_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts (tbl, n) SELECT TG_TABLE_NAME, count(*) FROM new_rows HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts (tbl, n) SELECT TG_TABLE_NAME, -count(*) FROM old_rows HAVING count(*) > 0;
  ELSE
    DELETE FROM row_counts WHERE tbl = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_count_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "users_count_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "users_count_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
INSERT INTO "row_counts" ("tbl", "n") SELECT 'users', count(*) FROM "users";--> statement-breakpoint
CREATE TRIGGER "servers_count_insert" AFTER INSERT ON "servers" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "servers_count_delete" AFTER DELETE ON "servers" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "servers_count_truncate" AFTER TRUNCATE ON "servers" FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
INSERT INTO "row_counts" ("tbl", "n") SELECT 'servers', count(*) FROM "servers";--> statement-breakpoint
CREATE TRIGGER "notification_groups_count_insert" AFTER INSERT ON "notification_groups" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "notification_groups_count_delete" AFTER DELETE ON "notification_groups" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "notification_groups_count_truncate" AFTER TRUNCATE ON "notification_groups" FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
INSERT INTO "row_counts" ("tbl", "n") SELECT 'notification_groups', count(*) FROM "notification_groups";--> statement-breakpoint
CREATE TRIGGER "services_count_insert" AFTER INSERT ON "services" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "services_count_delete" AFTER DELETE ON "services" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "services_count_truncate" AFTER TRUNCATE ON "services" FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
INSERT INTO "row_counts" ("tbl", "n") SELECT 'services', count(*) FROM "services";--> statement-breakpoint
CREATE TRIGGER "command_history_count_insert" AFTER INSERT ON "command_history" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "command_history_count_delete" AFTER DELETE ON "command_history" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
CREATE TRIGGER "command_history_count_truncate" AFTER TRUNCATE ON "command_history" FOR EACH STATEMENT EXECUTE FUNCTION row_counts_track();--> statement-breakpoint
INSERT INTO "row_counts" ("tbl", "n") SELECT 'command_history', count(*) FROM "command_history";
