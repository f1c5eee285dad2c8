ALTER TABLE "command_history" DROP CONSTRAINT "command_history_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "origin" text DEFAULT 'client' NOT NULL;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "actor_kind" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "role" text;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "actor_key_id" uuid;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "actor_label" text;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "command_line" text;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "status" integer;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "route" text;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "targets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "target_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "request_body" jsonb;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "command_history" ADD COLUMN "run_id" uuid;--> statement-breakpoint
CREATE INDEX "command_history_target_ids_idx" ON "command_history" USING gin ("target_ids");--> statement-breakpoint
CREATE INDEX "command_history_run_idx" ON "command_history" USING btree ("run_id");--> statement-breakpoint
-- Hand-written below (drizzle-kit models neither data fixes nor triggers).
-- Usernames become unique case-insensitively: they name people in the audit trail, and a user who
-- renamed themselves "admin" wrote history that read as the admin's. Existing duplicates are
-- resolved deterministically: in each group the oldest account (created_at, then id) keeps its
-- name, every other one becomes "<name>-<n>" with the smallest n >= 2 that is free; each rename is
-- recorded in the trail as done by Opsdeck.
DO $$
DECLARE
  dup record;
  candidate text;
  n int;
BEGIN
  FOR dup IN
    SELECT id, username FROM (
      SELECT id, username, row_number() OVER (PARTITION BY lower(username) ORDER BY created_at, id) AS rank FROM users
    ) ranked
    WHERE rank > 1
    ORDER BY lower(username), rank
  LOOP
    n := 2;
    LOOP
      candidate := dup.username || '-' || n;
      EXIT WHEN NOT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower(candidate));
      n := n + 1;
    END LOOP;
    UPDATE users SET username = candidate WHERE id = dup.id;
    INSERT INTO command_history (origin, actor_kind, username, command, source, outcome, duration_ms, method, route, targets, target_ids, request_body)
    VALUES ('server', 'system', 'Opsdeck', 'user.rename-duplicate', 'system', 'ok', 0, 'MIGRATION', '0018_audit_trail',
      jsonb_build_array(jsonb_build_object('kind', 'user', 'id', dup.id, 'name', dup.username)),
      ARRAY[dup.id],
      jsonb_build_object('username', candidate, 'was', dup.username, 'reason', 'usernames are unique case-insensitively'));
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
-- The trail is append-only: no UPDATE, no DELETE, no TRUNCATE. The one exception is the retention
-- prune (server/audit/retention.ts), which sets opsdeck.history_prune_before for its own
-- transaction (set_config(..., true)) and may then delete rows older than that moment, and never
-- rows of the last day, whatever it sets.
CREATE FUNCTION "command_history_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prune_before text := current_setting('opsdeck.history_prune_before', true);
BEGIN
  -- Nested, not one AND: OLD is not a row in the statement-level TRUNCATE trigger.
  IF TG_OP = 'DELETE' AND coalesce(prune_before, '') <> '' THEN
    IF OLD.created_at < prune_before::timestamptz AND OLD.created_at < now() - interval '1 day' THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'command_history is append-only: % refused', TG_OP;
END $$;--> statement-breakpoint
CREATE TRIGGER "command_history_append_only" BEFORE UPDATE OR DELETE ON "command_history" FOR EACH ROW EXECUTE FUNCTION "command_history_append_only"();--> statement-breakpoint
CREATE TRIGGER "command_history_no_truncate" BEFORE TRUNCATE ON "command_history" FOR EACH STATEMENT EXECUTE FUNCTION "command_history_append_only"();
