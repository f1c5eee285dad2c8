CREATE TABLE "live_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "live_events_at_idx" ON "live_events" USING btree ("at");--> statement-breakpoint
-- One notification per statement that wrote live events: listeners read the rows themselves
-- (server/live/hub.ts), so a payload's 8,000-byte limit never matters.
CREATE OR REPLACE FUNCTION "live_events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('opsdeck_live', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "live_events_notify" AFTER INSERT ON "live_events" FOR EACH STATEMENT EXECUTE FUNCTION live_events_notify();--> statement-breakpoint
-- Alerts: opened, changed in what a person sees (status, severity, acknowledgement, snooze,
-- mute, texts), resolved, reopened, deleted. Routing's bookkeeping (next_action_at, notified_at…)
-- changes nothing on screen and writes no event.
CREATE OR REPLACE FUNCTION "live_alerts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO live_events (kind, data)
    SELECT 'alert', jsonb_build_object('id', n.id, 'change', 'opened', 'status', n.status, 'severity', n.severity, 'hostname', n.hostname, 'alertname', n.alertname, 'serverId', n.server_id, 'checkId', n.check_id)
    FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO live_events (kind, data)
    SELECT 'alert', jsonb_build_object('id', o.id, 'change', 'deleted', 'status', o.status, 'severity', o.severity, 'hostname', o.hostname, 'alertname', o.alertname, 'serverId', o.server_id, 'checkId', o.check_id)
    FROM old_rows o;
  ELSE
    INSERT INTO live_events (kind, data)
    SELECT 'alert', jsonb_build_object('id', n.id,
      'change', CASE WHEN n.status = 'resolved' AND o.status <> 'resolved' THEN 'resolved' WHEN o.status = 'resolved' AND n.status <> 'resolved' THEN 'reopened' ELSE 'changed' END,
      'status', n.status, 'severity', n.severity, 'hostname', n.hostname, 'alertname', n.alertname, 'serverId', n.server_id, 'checkId', n.check_id)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.status, n.severity, n.ack_user_id, n.ack_at, n.ack_until, n.ack_note, n.snoozed_until, n.mute, n.mute_label, n.hostname, n.alertname, n.description, n.summary, n.escalation_step)
      IS DISTINCT FROM (o.status, o.severity, o.ack_user_id, o.ack_at, o.ack_until, o.ack_note, o.snoozed_until, o.mute, o.mute_label, o.hostname, o.alertname, o.description, o.summary, o.escalation_step);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "alerts_live_insert" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_alerts();--> statement-breakpoint
CREATE TRIGGER "alerts_live_update" AFTER UPDATE ON "alerts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_alerts();--> statement-breakpoint
CREATE TRIGGER "alerts_live_delete" AFTER DELETE ON "alerts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_alerts();--> statement-breakpoint
-- An alert's timeline and delivery log (the drawer's tabs): one event per alert and statement.
CREATE OR REPLACE FUNCTION "live_alert_parts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO live_events (kind, data)
  SELECT 'alert', jsonb_build_object('id', a.id, 'change', TG_ARGV[0], 'status', a.status, 'severity', a.severity, 'hostname', a.hostname, 'alertname', a.alertname, 'serverId', a.server_id, 'checkId', a.check_id)
  FROM (SELECT DISTINCT alert_id FROM new_rows) n JOIN alerts a ON a.id = n.alert_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "alert_events_live_insert" AFTER INSERT ON "alert_events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_alert_parts('timeline');--> statement-breakpoint
CREATE TRIGGER "alert_deliveries_live_insert" AFTER INSERT ON "alert_deliveries" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_alert_parts('delivery');--> statement-breakpoint
CREATE TRIGGER "alert_deliveries_live_update" AFTER UPDATE ON "alert_deliveries" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_alert_parts('delivery');--> statement-breakpoint
-- Servers: registered, deleted, a state change (up, down, stale) or a change a person made.
-- A scrape's new figures alone write nothing here: monitoring writes one `servers` event per
-- written round instead of one per server.
CREATE OR REPLACE FUNCTION "live_servers"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO live_events (kind, data) SELECT 'server', jsonb_build_object('id', n.id, 'change', 'created', 'state', n.state, 'hostname', n.hostname) FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO live_events (kind, data) SELECT 'server', jsonb_build_object('id', o.id, 'change', 'deleted', 'state', o.state, 'hostname', o.hostname) FROM old_rows o;
  ELSE
    INSERT INTO live_events (kind, data)
    SELECT 'server', jsonb_build_object('id', n.id, 'change', CASE WHEN n.state IS DISTINCT FROM o.state THEN 'state' ELSE 'changed' END, 'state', n.state, 'hostname', n.hostname)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.state, n.hostname, n.ipaddress, n.agent_port, n.operating_system, n.status, n.suppress_alarm, n.is_agent_configured, n.is_agent_installed, n.labels)
      IS DISTINCT FROM (o.state, o.hostname, o.ipaddress, o.agent_port, o.operating_system, o.status, o.suppress_alarm, o.is_agent_configured, o.is_agent_installed, o.labels);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "servers_live_insert" AFTER INSERT ON "servers" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_servers();--> statement-breakpoint
CREATE TRIGGER "servers_live_update" AFTER UPDATE ON "servers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_servers();--> statement-breakpoint
CREATE TRIGGER "servers_live_delete" AFTER DELETE ON "servers" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_servers();--> statement-breakpoint
-- Services (Services Down, a server's Services tab): one event per statement naming the servers.
CREATE OR REPLACE FUNCTION "live_services"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO live_events (kind, data) SELECT 'services', jsonb_build_object('serverIds', jsonb_agg(DISTINCT o.server_id)) FROM old_rows o HAVING count(*) > 0;
  ELSE
    INSERT INTO live_events (kind, data) SELECT 'services', jsonb_build_object('serverIds', jsonb_agg(DISTINCT n.server_id)) FROM new_rows n HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "services_live_insert" AFTER INSERT ON "services" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_services();--> statement-breakpoint
CREATE TRIGGER "services_live_update" AFTER UPDATE ON "services" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_services();--> statement-breakpoint
CREATE TRIGGER "services_live_delete" AFTER DELETE ON "services" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_services();--> statement-breakpoint
-- Checks: created, deleted, a change of state or settings per check; new results as one event
-- per statement naming the checks.
CREATE OR REPLACE FUNCTION "live_checks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO live_events (kind, data) SELECT 'check', jsonb_build_object('id', n.id, 'change', 'created', 'state', n.state, 'name', n.name) FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO live_events (kind, data) SELECT 'check', jsonb_build_object('id', o.id, 'change', 'deleted', 'state', o.state, 'name', o.name) FROM old_rows o;
  ELSE
    INSERT INTO live_events (kind, data)
    SELECT 'check', jsonb_build_object('id', n.id, 'change', CASE WHEN n.state IS DISTINCT FROM o.state THEN 'state' ELSE 'changed' END, 'state', n.state, 'name', n.name)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.state, n.name, n.target, n.paused, n.interval_s, n.timeout_s, n.updated_at) IS DISTINCT FROM (o.state, o.name, o.target, o.paused, o.interval_s, o.timeout_s, o.updated_at);
    INSERT INTO live_events (kind, data)
    SELECT 'check', jsonb_build_object('change', 'results', 'ids', jsonb_agg(n.id))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.last_checked_at IS DISTINCT FROM o.last_checked_at
    HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "checks_live_insert" AFTER INSERT ON "checks" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_checks();--> statement-breakpoint
CREATE TRIGGER "checks_live_update" AFTER UPDATE ON "checks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_checks();--> statement-breakpoint
CREATE TRIGGER "checks_live_delete" AFTER DELETE ON "checks" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_checks();--> statement-breakpoint
-- History records (the History panel, the incident report).
CREATE OR REPLACE FUNCTION "live_history"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO live_events (kind, data)
  SELECT 'history', jsonb_build_object('id', n.id, 'command', n.command, 'username', n.username, 'origin', n.origin) FROM new_rows n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "command_history_live_insert" AFTER INSERT ON "command_history" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_history();
