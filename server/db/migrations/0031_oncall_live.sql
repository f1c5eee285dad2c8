-- On-call schedules on the live stream (GET /api/live): a schedule made, renamed, moved to
-- another zone, its layers changed or deleted, an override or swap added or removed, and its
-- calendar feed made or revoked (a person's own feed is nobody else's business), so the
-- On Call screens and the top bar's shift of every open tab fetch again. One event per schedule
-- and statement; the rows themselves are read by the screens.
CREATE OR REPLACE FUNCTION "live_oncall"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO live_events (kind, data)
    SELECT 'schedule', jsonb_build_object('id', o.sid, 'change', CASE WHEN TG_TABLE_NAME = 'oncall_schedules' THEN 'deleted' ELSE TG_ARGV[0] END)
    FROM (SELECT DISTINCT CASE WHEN TG_TABLE_NAME = 'oncall_schedules' THEN (to_jsonb(r) ->> 'id') ELSE (to_jsonb(r) ->> 'schedule_id') END AS sid FROM old_rows r) o WHERE o.sid IS NOT NULL;
  ELSE
    INSERT INTO live_events (kind, data)
    SELECT 'schedule', jsonb_build_object('id', n.sid, 'change', CASE WHEN TG_TABLE_NAME = 'oncall_schedules' AND TG_OP = 'INSERT' THEN 'created' ELSE TG_ARGV[0] END)
    FROM (SELECT DISTINCT CASE WHEN TG_TABLE_NAME = 'oncall_schedules' THEN (to_jsonb(r) ->> 'id') ELSE (to_jsonb(r) ->> 'schedule_id') END AS sid FROM new_rows r) n WHERE n.sid IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "oncall_schedules_live_insert" AFTER INSERT ON "oncall_schedules" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('changed');--> statement-breakpoint
CREATE TRIGGER "oncall_schedules_live_update" AFTER UPDATE ON "oncall_schedules" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('changed');--> statement-breakpoint
CREATE TRIGGER "oncall_schedules_live_delete" AFTER DELETE ON "oncall_schedules" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('deleted');--> statement-breakpoint
CREATE TRIGGER "oncall_overrides_live_insert" AFTER INSERT ON "oncall_overrides" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('override');--> statement-breakpoint
CREATE TRIGGER "oncall_overrides_live_delete" AFTER DELETE ON "oncall_overrides" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('override');--> statement-breakpoint
CREATE TRIGGER "oncall_swaps_live_insert" AFTER INSERT ON "oncall_swaps" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('swap');--> statement-breakpoint
CREATE TRIGGER "oncall_swaps_live_delete" AFTER DELETE ON "oncall_swaps" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('swap');--> statement-breakpoint
CREATE TRIGGER "oncall_feed_tokens_live_insert" AFTER INSERT ON "oncall_feed_tokens" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('feed');--> statement-breakpoint
CREATE TRIGGER "oncall_feed_tokens_live_delete" AFTER DELETE ON "oncall_feed_tokens" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_oncall('feed');
