import { and, desc, eq, ne, or, sql } from 'drizzle-orm';
import { ALERTMANAGER_ALERT_TYPE, type Severity } from '../contract/alerts';
import { escapeMarkdown } from '../contract/alert-text';
import type { AmReceiveResult, AmWebhook, AmWebhookAlert } from '../contract/alertmanager';
import type { Db } from '../db/client';
import { alerts, servers } from '../db/schema';
import { recordTransitions } from '../alerting/lifecycle';
import { OPSDECK_ALERT_ANNOTATION } from './labels';

/** The host part of an `instance` label: "10.0.0.5:9100" → "10.0.0.5", "[::1]:9100" → "::1", "web-1" → "web-1". */
export function instanceHost(instance: string): string {
  const v = instance.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) return bracketed[1]!;
  // One colon: host:port. More: a bare IPv6 address.
  return (v.match(/:/g) ?? []).length === 1 ? v.slice(0, v.indexOf(':')) : v;
}

/** Prometheus rules name severities freely; ours are four. */
export function severityOf(label: string | undefined): Severity {
  const v = (label ?? '').trim().toLowerCase();
  if (['critical', 'crit', 'page', 'error', 'high', 'fatal', 'emergency', 'alert', 'p1'].includes(v)) return 'critical';
  if (['info', 'informational', 'low', 'none', 'notice', 'debug'].includes(v)) return 'info';
  if (v === 'normal') return 'normal';
  return 'warning';
}

const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A time Alertmanager sent, never in the future; its zero time (0001-01-01) is "unset". */
function timeOf(value: string | undefined, now: Date): Date | null {
  if (!value) return null;
  const t = Date.parse(value);
  if (Number.isNaN(t) || t <= 0) return null;
  return new Date(Math.min(t, now.getTime()));
}

async function matchServer(tx: Db, instance: string | undefined): Promise<{ id: string; hostname: string; ipaddress: string } | null> {
  if (!instance) return null;
  const host = instanceHost(instance).toLowerCase();
  if (!host) return null;
  const rows = await tx
    .select({ id: servers.id, hostname: servers.hostname, ipaddress: servers.ipaddress })
    .from(servers)
    .where(or(sql`lower(${servers.ipaddress}) = ${host}`, sql`lower(${servers.hostname}) = ${host}`))
    .orderBy(sql`lower(${servers.ipaddress}) = ${host} desc`, servers.createdAt)
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Issue 15 §3: one Alertmanager webhook notification as Opsdeck alerts, in the caller's
 * transaction. An alert is known by Alertmanager's fingerprint and its startsAt (one occurrence):
 * firing opens it (matched to a server by `instance`, or kept without one) or refreshes the open
 * one; resolved resolves it. An occurrence an operator resolved in Opsdeck stays resolved when
 * Alertmanager repeats it. Alerts that Opsdeck pushed itself are ignored (no loop). Received
 * alerts notify no Opsdeck group: Alertmanager routes them already.
 */
export async function receiveNotification(tx: Db, payload: AmWebhook, now: Date): Promise<AmReceiveResult> {
  const result: AmReceiveResult = { opened: 0, updated: 0, resolved: 0, ignored: 0, alertIds: [] };
  for (const alert of payload.alerts) {
    if (alert.annotations?.[OPSDECK_ALERT_ANNOTATION] !== undefined) {
      result.ignored++;
      continue;
    }
    const outcome = alert.status === 'firing' ? await fire(tx, alert, payload.receiver, now) : await resolve(tx, alert, now);
    result[outcome.kind]++;
    if (outcome.id && !result.alertIds.includes(outcome.id)) result.alertIds.push(outcome.id);
  }
  return result;
}

type Outcome = { kind: 'opened' | 'updated' | 'resolved' | 'ignored'; id: string | null };

function fields(alert: AmWebhookAlert) {
  const a = alert.annotations ?? {};
  const l = alert.labels;
  return {
    alertname: cap(l.alertname || 'Alertmanager alert', 500),
    severity: severityOf(l.severity),
    description: cap(escapeMarkdown(a.description ?? a.message ?? ''), 4000),
    summary: cap(a.summary ?? '', 1000),
    service: l.service ? cap(l.service, 500) : null,
    mountpoint: l.mountpoint ? cap(l.mountpoint, 500) : null,
    labels: l,
    generatorUrl: alert.generatorURL || null,
  };
}

async function fire(tx: Db, alert: AmWebhookAlert, receiver: string | undefined, now: Date): Promise<Outcome> {
  const startsAt = timeOf(alert.startsAt, now) ?? now;
  const [known] = await tx
    .select({ id: alerts.id, status: alerts.status })
    .from(alerts)
    .where(and(eq(alerts.fingerprint, alert.fingerprint), or(ne(alerts.status, 'resolved'), eq(alerts.createdAt, startsAt))))
    .orderBy(desc(alerts.createdAt))
    .limit(1);
  const f = fields(alert);
  if (known) {
    if (known.status === 'resolved') return { kind: 'ignored', id: known.id };
    await tx
      .update(alerts)
      // A changed name or severity can change which silence or window mutes it: the router looks again (issue 14).
      .set({ ...f, updatedAt: now, nextActionAt: sql`least(${alerts.nextActionAt}, ${now.toISOString()}::timestamptz)` })
      .where(
        and(
          eq(alerts.id, known.id),
          // Only a real change moves updated_at (Alertmanager repeats notifications).
          sql`(${alerts.alertname}, ${alerts.severity}, ${alerts.description}, ${alerts.summary}, ${alerts.labels}::text, coalesce(${alerts.generatorUrl}, ''))
              is distinct from (${f.alertname}, ${f.severity}, ${f.description}, ${f.summary}, ${JSON.stringify(f.labels)}::jsonb::text, ${f.generatorUrl ?? ''})`,
        ),
      );
    return { kind: 'updated', id: known.id };
  }
  const server = await matchServer(tx, alert.labels.instance);
  const hostname = server?.hostname ?? (alert.labels.hostname || (alert.labels.instance ? instanceHost(alert.labels.instance) : '') || alert.labels.job || 'Alertmanager');
  const [row] = await tx
    .insert(alerts)
    .values({
      ...f,
      serverId: server?.id ?? null,
      subject: `am:${alert.fingerprint}`,
      hostname: cap(hostname, 500),
      instance: cap(server?.ipaddress ?? alert.labels.instance ?? '', 500),
      type: ALERTMANAGER_ALERT_TYPE,
      status: 'firing',
      source: 'alertmanager',
      fingerprint: alert.fingerprint,
      createdAt: startsAt,
      updatedAt: now,
      // The router's next sweep decides whether a silence or window mutes it (it notifies no group).
      nextActionAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: alerts.id });
  // Another notification opened it meanwhile (two instances of a cluster, a retry).
  if (!row) return { kind: 'updated', id: null };
  await recordTransitions(tx, startsAt, [
    { alertId: row.id, type: 'firing', note: `Firing in Alertmanager${receiver ? ` (receiver ${escapeMarkdown(cap(receiver, 200))})` : ''}.`, notify: false, groupId: null },
  ]);
  return { kind: 'opened', id: row.id };
}

async function resolve(tx: Db, alert: AmWebhookAlert, now: Date): Promise<Outcome> {
  const endsAt = timeOf(alert.endsAt, now) ?? now;
  const [done] = await tx
    .update(alerts)
    .set({
      status: 'resolved',
      resolvedAt: endsAt,
      updatedAt: now,
      snoozedUntil: null,
      nextActionAt: null,
      ackUserId: null,
      ackUsername: null,
      ackNote: null,
      ackAt: null,
      ackUntil: null,
      labels: alert.labels,
    })
    .where(and(eq(alerts.fingerprint, alert.fingerprint), ne(alerts.status, 'resolved')))
    .returning({ id: alerts.id });
  if (!done) return { kind: 'ignored', id: null };
  // The timeline says when Opsdeck heard it (after any notes and acknowledgements); resolvedAt is Alertmanager's end.
  await recordTransitions(tx, now, [{ alertId: done.id, type: 'resolved', note: 'Resolved in Alertmanager.', notify: false, groupId: null }]);
  return { kind: 'resolved', id: done.id };
}
