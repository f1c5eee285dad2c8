import { and, asc, between, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { alertRetentionCutoff } from '../alerting/retention';
import { recordDisplayLine } from '../audit/display';
import { historyInWindow } from '../audit/export';
import { systemEventCommands } from '../audit/system-events';
import type { AuditTarget } from '../contract/command-history';
import { MAX_REPORT_ALERTS, MAX_REPORT_COMMANDS, type IncidentReport, type incidentReportQuerySchema } from '../contract/incident-report';
import type { Db } from '../db/client';
import { alertEvents, alerts, commandHistory, servers } from '../db/schema';
import { notFound } from '../http/errors';
import { plannedDowntime } from './planned-downtime';
import { buildIncidentMarkdown, type ReportAlert, type ReportCommand } from './report-markdown';

/**
 * The incident report of a window (issue 5 §4), for one server or all: the markdown account and
 * how many alerts and commands it lists. Built on the server because it needs the timeline of
 * every alert in the window and may cover a large command history: three queries whatever the
 * window holds (alerts, their events, commands), never one per alert. `alertRetentionDays` (0:
 * kept for ever) lets it say when the window reaches back past what is kept.
 */
export async function incidentReport(db: Db, input: z.output<typeof incidentReportQuerySchema>, alertRetentionDays = 0): Promise<IncidentReport> {
  const { from, to, serverId } = input;
  let server: { id: string; hostname: string; ipaddress: string } | null = null;
  if (serverId) {
    const [row] = await db.select({ id: servers.id, hostname: servers.hostname, ipaddress: servers.ipaddress }).from(servers).where(eq(servers.id, serverId)).limit(1);
    if (!row) throw notFound(`No server with id "${serverId}"`);
    server = row;
  }

  // An alert belongs in the window when it was open during it (fired before its end, not
  // resolved before its start) or when anything happened to it inside it (a late note). Three
  // index range scans joined by a union: as one `or` over the alerts it was a pass over all of
  // them and all their events (1–1.7 s at 100,000 alerts; bench/incident-report.ts).
  const onServer = serverId ? eq(alerts.serverId, serverId) : undefined;
  const inWindow = union(
    db.select({ id: alerts.id }).from(alerts).where(and(onServer, inArray(alerts.status, ['firing', 'snoozed']), lte(alerts.createdAt, to))),
    db.select({ id: alerts.id }).from(alerts).where(and(onServer, gte(alerts.resolvedAt, from), lte(alerts.createdAt, to))),
    db.select({ id: alertEvents.alertId }).from(alertEvents).where(between(alertEvents.at, from, to)),
  );
  const alertRows = await db
    .select({ row: alerts, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(alerts)
    .where(and(onServer, inArray(alerts.id, inWindow)))
    .orderBy(asc(alerts.createdAt), asc(alerts.id))
    .limit(MAX_REPORT_ALERTS);
  const ids = alertRows.map((r) => r.row.id);
  const events = ids.length ? await db.select().from(alertEvents).where(inArray(alertEvents.alertId, ids)).orderBy(asc(alertEvents.at), asc(alertEvents.type)) : [];
  const timelines = new Map<string, ReportAlert['timeline']>();
  for (const e of events) {
    const list = timelines.get(e.alertId) ?? [];
    list.push({ type: e.type, at: e.at, note: e.note, by: e.username });
    timelines.set(e.alertId, list);
  }
  const reportAlerts: ReportAlert[] = alertRows.map(({ row }) => ({
    id: row.id,
    alertname: row.alertname,
    hostname: row.hostname,
    instance: row.instance,
    summary: row.summary,
    service: row.service,
    mountpoint: row.mountpoint,
    description: row.description,
    severity: row.severity,
    status: row.status,
    createdAt: row.createdAt,
    resolvedAt: row.resolvedAt,
    timeline: timelines.get(row.id) ?? [],
  }));
  // Issue 14 §3: maintenance windows in the report's window, and which alerts they planned.
  const planned = await plannedDowntime(
    db,
    { from, to },
    server,
    alertRows.map(({ row }) => ({ ...row, timeline: timelines.get(row.id) ?? [] })),
  );
  for (const a of reportAlerts) a.plannedDowntime = planned.byAlert.get(a.id) ?? null;

  // For one server, the records that name it or one of its alerts in the report among their
  // targets (and older or client records whose input names it).
  const commandRows = await db
    .select({ row: commandHistory, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(commandHistory)
    // The evaluator's alert events are in the alerts' timelines already, and sign-ins are not
    // part of an incident: one row per happening (issue 24 §4).
    .where(and(historyInWindow(from, to, server, ids), sql`not (${commandHistory.actorKind} = 'system' and ${commandHistory.command} in (${sql.join(systemEventCommands.map((c) => sql`${c}`), sql`, `)}))`, sql`${commandHistory.command} not in ('session.signin', 'session.signout', 'POST /api/auth/signin', 'POST /api/auth/signout')`))
    .orderBy(asc(commandHistory.createdAt), asc(commandHistory.id))
    .limit(MAX_REPORT_COMMANDS);
  // An undo names the run it reversed, by its line as people read it.
  const undone = commandRows.flatMap(({ row }) => (row.undoOf ? [row.undoOf] : []));
  const undoneRows = undone.length ? await db.select().from(commandHistory).where(inArray(commandHistory.id, undone)) : [];
  const undoneLine = new Map(undoneRows.map((r) => [r.id, recordDisplayLine(r) ?? r.command]));
  const commands: ReportCommand[] = commandRows.map(({ row }) => ({
    id: row.id,
    displayLine: recordDisplayLine(row),
    undoOf: row.undoOf ? (undoneLine.get(row.undoOf) ?? 'an earlier run') : null,
    at: row.createdAt,
    username: row.username,
    command: row.command,
    input: row.input,
    outcome: row.outcome as ReportCommand['outcome'],
    error: row.error,
    commandLine: row.commandLine,
    targets: (row.targets ?? []) as AuditTarget[],
    origin: row.origin,
    actorKind: row.actorKind,
    actorLabel: row.actorLabel,
  }));

  const generatedAt = new Date();
  const cutoff = alertRetentionCutoff(alertRetentionDays, generatedAt);
  const markdown = buildIncidentMarkdown({
    from,
    to,
    // A window reaching back past the retention cutoff may miss alerts deleted since: say so.
    retention: cutoff && from.getTime() < cutoff.getTime() ? { days: alertRetentionDays, cutoff } : null,
    server,
    generatedAt,
    alerts: reportAlerts,
    commands,
    totalAlerts: alertRows[0]?.total ?? 0,
    totalCommands: commandRows[0]?.total ?? 0,
    plannedWindows: planned.windows,
  });
  return { markdown, alerts: reportAlerts.length, commands: commands.length };
}
