import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { MONITORING_ALERT_TYPE } from '../contract/alerts';
import type { Db } from '../db/client';

/** The meta alert's subject: one open "Monitoring backend unreachable" at a time (alerts_open_meta_idx). */
export const BACKEND_SUBJECT = 'monitoring-backend';
export const BACKEND_ALERTNAME = 'Monitoring backend unreachable';

/** The settings row naming the groups the meta alert goes to; absent: the default. */
export const META_ALERT_GROUPS_KEY = 'monitoring_alert_groups';

/**
 * The groups "Monitoring backend unreachable" is sent to: those an admin chose (settings row
 * META_ALERT_GROUPS_KEY, deleted groups left out), or by default every group with email on.
 */
export async function metaAlertGroups(tx: Db): Promise<string[]> {
  const chosen = await tx.execute<{ value: { groupIds?: unknown } }>(sql`select value from settings where key = ${META_ALERT_GROUPS_KEY}`);
  const ids = chosen.rows[0]?.value?.groupIds;
  if (Array.isArray(ids)) {
    const list = ids.filter((id): id is string => typeof id === 'string');
    if (!list.length) return [];
    const rows = await tx.execute<{ id: string }>(sql`select id from notification_groups where id = any(${sql.param(list)}::uuid[]) order by created_at`);
    return rows.rows.map((r) => r.id);
  }
  const rows = await tx.execute<{ id: string }>(sql`select id from notification_groups where email_enabled order by created_at`);
  return rows.rows.map((r) => r.id);
}

/** One timeline event, and one outbox row per group (each group's messages keep their own order). */
async function fanOut(tx: Db, at: Date, alertId: string, type: 'firing' | 'resolved', note: string | null, groupIds: string[]): Promise<number> {
  const eventId = randomUUID();
  await tx.execute(sql`insert into alert_events (id, alert_id, type, at, note) values (${eventId}, ${alertId}, ${type}, ${at.toISOString()}::timestamptz, ${note})`);
  for (const groupId of groupIds) {
    await tx.execute(sql`
      insert into alert_outbox (alert_id, event_id, transition, notification_group_id, created_at)
      values (${alertId}, ${eventId}, ${type}, ${groupId}, ${at.toISOString()}::timestamptz)`);
  }
  return groupIds.length;
}

export interface BackendAlertFacts {
  /** Where the figures come from: "Prometheus at http://…", "built-in collector". */
  backend: string;
  cause: string;
  staleServers: number;
}

/** What a meta alert says when it opens (the console's own alerts: type monitoring_alert, no server). */
export interface MetaAlertText {
  subject: string;
  alertname: string;
  /** The instance column: what the alert is about ("Prometheus at …", "built-in collector", "database"). */
  instance: string;
  summary: string;
  description: string;
  severity?: 'critical' | 'warning';
}

async function openMeta(tx: Db, at: Date, text: MetaAlertText): Promise<{ alertId: string; queued: number }> {
  const open = await tx.execute<{ id: string }>(sql`
    select id from alerts where server_id is null and type = ${MONITORING_ALERT_TYPE} and subject = ${text.subject} and status <> 'resolved' limit 1`);
  if (open.rows[0]) return { alertId: open.rows[0].id, queued: 0 };
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into alerts (server_id, rule_id, subject, hostname, instance, alertname, description, type, severity, status, summary, created_at, updated_at)
    values (null, null, ${text.subject}, 'Opsdeck', ${text.instance.slice(0, 200)}, ${text.alertname}, ${text.description.slice(0, 2000)}, ${MONITORING_ALERT_TYPE}, ${text.severity ?? 'critical'}, 'firing',
            ${text.summary.slice(0, 500)}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz)
    on conflict do nothing
    returning id`);
  const alertId = inserted.rows[0]?.id;
  if (!alertId) {
    // Another process opened it meanwhile (a takeover): that one's notifications stand.
    const again = await tx.execute<{ id: string }>(sql`
      select id from alerts where server_id is null and type = ${MONITORING_ALERT_TYPE} and subject = ${text.subject} and status <> 'resolved' limit 1`);
    return { alertId: again.rows[0]!.id, queued: 0 };
  }
  const queued = await fanOut(tx, at, alertId, 'firing', null, await metaAlertGroups(tx));
  return { alertId, queued };
}

async function resolveMeta(tx: Db, at: Date, subject: string, note: string): Promise<{ alertId: string | null; queued: number }> {
  const resolved = await tx.execute<{ id: string }>(sql`
    update alerts set status = 'resolved', resolved_at = ${at.toISOString()}::timestamptz, updated_at = ${at.toISOString()}::timestamptz, snoozed_until = null
    where server_id is null and type = ${MONITORING_ALERT_TYPE} and subject = ${subject} and status <> 'resolved'
    returning id`);
  const alertId = resolved.rows[0]?.id;
  if (!alertId) return { alertId: null, queued: 0 };
  // Those who were told it fired are told it resolved (the groups of its firing notification).
  const groups = await tx.execute<{ id: string }>(sql`
    select distinct o.notification_group_id as id from alert_outbox o
    where o.alert_id = ${alertId} and o.transition = 'firing' and o.notification_group_id is not null`);
  const queued = await fanOut(tx, at, alertId, 'resolved', note, groups.rows.map((r) => r.id));
  return { alertId, queued };
}

/**
 * Opens "Monitoring backend unreachable" (type monitoring_alert, no server) and queues it to the
 * chosen groups, unless one is open already. Returns the open alert's id and how many
 * notifications were queued.
 */
export async function openBackendAlert(tx: Db, at: Date, facts: BackendAlertFacts): Promise<{ alertId: string; queued: number }> {
  return openMeta(tx, at, {
    subject: BACKEND_SUBJECT,
    alertname: BACKEND_ALERTNAME,
    instance: facts.backend,
    summary: `Opsdeck has no fresh figures: ${facts.cause}`,
    description:
      `Opsdeck cannot read fresh figures from its monitoring backend (${facts.backend}). ` +
      `${facts.staleServers} server(s) show as Stale, and CPU, memory, disk, service and down alerts cannot fire or resolve until figures come back.\n\n` +
      `Cause: ${facts.cause}`,
  });
}

/** Resolves the open "Monitoring backend unreachable" alert, if any, and queues the resolution to the same groups. */
export async function resolveBackendAlert(tx: Db, at: Date): Promise<{ alertId: string | null; queued: number }> {
  return resolveMeta(tx, at, BACKEND_SUBJECT, 'Fresh figures are coming in again.');
}

/** One meta alert for every target over SCRAPE_SERIES_LIMIT or SCRAPE_LABEL_LIMIT. */
export const LIMITS_SUBJECT = 'scrape-limits';
export const LIMITS_ALERTNAME = 'Monitoring targets over their limits';

/** A server whose exporter answered past the limits, and why. */
export interface OverLimitTarget {
  hostname: string;
  address: string;
  reason: string;
}

function limitsText(targets: OverLimitTarget[], total: number): { summary: string; description: string } {
  const listed = targets.map((t) => `- ${t.hostname} (${t.address}): ${t.reason}`).join('\n');
  const more = total > targets.length ? `\n- and ${total - targets.length} more` : '';
  return {
    summary: `${total === 1 ? `${targets[0]!.hostname} is` : `${total} servers are`} over the scrape limits: nothing of their scrapes is used`,
    description:
      `The exporters of ${total} server(s) answered with more samples than SCRAPE_SERIES_LIMIT or a label longer than SCRAPE_LABEL_LIMIT. ` +
      `Their scrapes are refused as a whole, so they show "Over limits" with their last figures, and their alerts can neither fire nor resolve.\n\n${listed}${more}`,
  };
}

/**
 * Opens "Monitoring targets over their limits" (warning, no server) for the targets given, or,
 * when it is open already, brings its summary and description up to date (no new notification).
 */
export async function openLimitsAlert(tx: Db, at: Date, targets: OverLimitTarget[], total: number): Promise<{ alertId: string; queued: number }> {
  const text = limitsText(targets, total);
  const opened = await openMeta(tx, at, { subject: LIMITS_SUBJECT, alertname: LIMITS_ALERTNAME, instance: 'built-in collector', severity: 'warning', ...text });
  if (!opened.queued) {
    await tx.execute(sql`
      update alerts set summary = ${text.summary.slice(0, 500)}, description = ${text.description.slice(0, 2000)}, updated_at = ${at.toISOString()}::timestamptz
      where id = ${opened.alertId} and (summary is distinct from ${text.summary.slice(0, 500)} or description is distinct from ${text.description.slice(0, 2000)})`);
  }
  return opened;
}

export async function resolveLimitsAlert(tx: Db, at: Date): Promise<{ alertId: string | null; queued: number }> {
  return resolveMeta(tx, at, LIMITS_SUBJECT, 'Every target is within its limits again.');
}

/** "Opsdeck cannot store changes": a full disk, a read-only database, no free connection (ops/faults.ts). */
export const STORAGE_SUBJECT = 'database-storage';
export const STORAGE_ALERTNAME = 'Opsdeck cannot store changes';

export interface StorageFaultFacts {
  reason: string;
  message: string;
  detail: string;
}

/** Opens "Opsdeck cannot store changes" for the faults given (one open at a time; its text follows the faults). */
export async function openStorageAlert(tx: Db, at: Date, faults: StorageFaultFacts[], database: string): Promise<{ alertId: string; queued: number }> {
  const summary = `Opsdeck cannot store changes: ${faults.map((f) => f.reason).join(', ')}`;
  const description =
    `Writes to the console's database fail, so changes, scraped figures and alert transitions are not stored. Reading still works, and the fault clears by itself once it is over.\n\n` +
    faults.map((f) => `- ${f.reason}: ${f.message} (${f.detail})`).join('\n');
  const opened = await openMeta(tx, at, { subject: STORAGE_SUBJECT, alertname: STORAGE_ALERTNAME, instance: database, summary, description });
  if (!opened.queued) {
    await tx.execute(sql`
      update alerts set summary = ${summary.slice(0, 500)}, description = ${description.slice(0, 2000)}, updated_at = ${at.toISOString()}::timestamptz
      where id = ${opened.alertId} and summary is distinct from ${summary.slice(0, 500)}`);
  }
  return opened;
}

export async function resolveStorageAlert(tx: Db, at: Date): Promise<{ alertId: string | null; queued: number }> {
  return resolveMeta(tx, at, STORAGE_SUBJECT, 'Changes are stored again.');
}
