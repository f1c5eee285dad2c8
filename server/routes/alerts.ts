import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { AlertEvaluator } from '../alerting/evaluator';
import { audited, auditRelated, auditTarget } from '../audit/trail';
import { acknowledgeAlert, NO_ACK, unacknowledgeAlert } from '../alerting/acknowledge';
import { notifyContext, recordTransitions } from '../alerting/lifecycle';
import { ackAlertSchema, unackAlertSchema, updateAlertSchema, type Alert, type AlertDetail, type TimelineEvent } from '../contract/alerts';
import { listQuerySchema } from '../contract/common';
import type { AlertingSettings } from '../config';
import type { Database, Db } from '../db/client';
import { alertCounts, alertEvents, alertRules, alerts, servers } from '../db/schema';
import { badRequest, conflict, fromZod, notFound, pgCode } from '../http/errors';
import { requirePermission } from '../http/session';
import { registerAlertConfig } from './alert-config';
import { registerNotificationGroups } from './notification-groups';
import { registerNotificationChannels } from './notification-channels';
import { registerMaintenanceWindows } from './maintenance-windows';
import { registerSilences } from './silences';
import { escapeLike, declared, filterCondition, UUID, type FilterSpec } from './resource';

declare module 'fastify' {
  interface FastifyInstance {
    alerting: AlertEvaluator;
  }
}

type AlertRow = typeof alerts.$inferSelect;
type EventRow = typeof alertEvents.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** How the audit trail names an alert: "alertname @ hostname", as it read at that moment. */
export const alertTarget = (row: { id: string; alertname: string; hostname: string }) => ({ kind: 'alert', id: row.id, name: `${row.alertname} @ ${row.hostname}` });

export function alertToApi(row: AlertRow): Alert {
  return {
    _id: row.id,
    id: row.id,
    serverId: row.serverId,
    checkId: row.checkId,
    ruleId: row.ruleId ?? row.checkRuleId,
    hostname: row.hostname,
    instance: row.instance,
    ipaddress: row.instance,
    alertname: row.alertname,
    description: row.description,
    type: row.type,
    severity: row.severity,
    status: row.status,
    summary: row.summary,
    mountpoint: row.mountpoint,
    volume: row.volume,
    service: row.service,
    value: row.value,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    resolvedAt: iso(row.resolvedAt),
    snoozedUntil: iso(row.snoozedUntil),
    acknowledgement: row.ackAt
      ? { by: { _id: row.ackUserId, username: row.ackUsername ?? 'unknown' }, note: row.ackNote, at: row.ackAt.toISOString(), until: iso(row.ackUntil) }
      : null,
    mute: row.mute ? { reason: row.mute, label: row.muteLabel ?? row.mute, ref: row.muteRef } : null,
    notifiedAt: iso(row.notifiedAt),
    source: row.source,
    labels: row.labels ?? null,
    generatorURL: row.generatorUrl,
  };
}

function eventToApi(row: EventRow): TimelineEvent {
  return {
    _id: row.id,
    type: row.type,
    timestamp: row.at.toISOString(),
    note: row.note,
    by: row.username ? { _id: row.userId, username: row.username } : null,
  };
}

async function detail(db: Db, row: AlertRow): Promise<AlertDetail> {
  const events = await db.select().from(alertEvents).where(eq(alertEvents.alertId, row.id)).orderBy(asc(alertEvents.at), asc(alertEvents.type));
  return { ...alertToApi(row), timeline: events.map(eventToApi) };
}

async function findAlert(db: Db, id: string): Promise<AlertRow> {
  const row = UUID.test(id) ? (await db.select().from(alerts).where(eq(alerts.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No alert with id "${id}"`);
  return row;
}

const filterable: Record<string, FilterSpec> = {
  serverId: { column: alerts.serverId, ops: ['eq', 'in'], kind: 'uuid' },
  checkId: { column: alerts.checkId, ops: ['eq', 'in'], kind: 'uuid' },
  status: { column: alerts.status, ops: ['eq', 'in'] },
  hostname: { column: alerts.hostname, lower: alerts.hostnameLc as never, ops: ['contains', 'eq'] },
  createdAt: { column: alerts.createdAt, ops: ['between'], kind: 'date' },
  severity: { column: alerts.severity, ops: ['eq', 'in'] },
  alertname: { column: alerts.alertname, ops: ['contains', 'eq', 'in'] },
  type: { column: alerts.type, ops: ['eq', 'in'] },
  instance: { column: alerts.instance, ops: ['contains', 'eq'] },
  // Issue 14: acknowledged or not (a generated boolean would cost a column; this reads ack_at).
  acknowledged: { column: sql`(${alerts.ackAt} is not null)` as never, ops: ['eq'], kind: 'boolean' },
};
/**
 * Filters the per-hostname, status and search-text counts can answer (alert_counts, migrations
 * 0008 and 0009): a list filtered by nothing else (a search included) counts there instead of
 * passing over every match. An exact count of 100,000 alerts was most of an unfiltered page's
 * time (~30 ms on PGlite), and of a search matching a third of them 20 ms.
 */
const countable: Record<string, FilterSpec> = {
  status: { column: alertCounts.status, ops: ['eq', 'in'] },
  hostname: { column: alertCounts.hostname, ops: ['contains', 'eq'] },
};
/** Above this many matches a filtered list walks the sort index instead of sorting the matches. */
const DENSE_MATCHES = 5000;

const sortable = {
  createdAt: alerts.createdAt,
  updatedAt: alerts.updatedAt,
  severity: alerts.severity,
  status: alerts.status,
  hostname: alerts.hostnameLc as never,
  alertname: alerts.alertname,
};

/**
 * SPEC §7 alerts, alert-config and notification-groups, and the evaluator, started and stopped
 * with the app (docs/alerting.md).
 */
export function registerAlerts(app: FastifyInstance, database: Database, settings: AlertingSettings): void {
  const { db } = database;
  const evaluator = new AlertEvaluator(database, settings, app.log.child({ module: 'alerting' }), Date.now, app.leader);
  app.decorate('alerting', evaluator);
  // Leader-only: started and stopped with leadership (app.ts closes the gate first).
  app.leader.add({ name: 'evaluator', start: () => evaluator.start(), stop: () => evaluator.stop() });

  // PostgreSQL plans a parallel scan for some list queries (status in two values, a search):
  // starting its workers cost 70–100 ms of wall time for 3 ms of work on a busy two-core
  // machine (bench/alerts-list.ts). A list page is small work: it runs without workers.
  const listing = <T>(fn: (d: Db) => Promise<T>): Promise<T> =>
    database.kind === 'postgres'
      ? db.transaction(async (tx) => {
          await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
          return fn(tx as unknown as Db);
        })
      : fn(db);

  app.post('/api/alerts/all', { preHandler: requirePermission('read') }, async (request) => {
    const parsed = listQuerySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const q = parsed.data;
    const conditions: SQL[] = [];
    for (const [field, value] of Object.entries(q.filter ?? {})) {
      const spec = declared(filterable, field);
      if (!spec) throw badRequest(`Unknown filter field "${field}" (filterable: ${Object.keys(filterable).join(', ')})`, field);
      conditions.push(filterCondition(field, spec, value));
    }
    const search = q.search?.trim();
    const searchPattern = search ? `%${escapeLike(search.toLowerCase())}%` : null;
    if (searchPattern) conditions.push(sql`${alerts.searchLc} like ${searchPattern}`);
    const sort = q.sort ?? { by: 'createdAt', direction: 'desc' as const };
    const column = declared<PgColumn>(sortable, sort.by);
    if (!column) throw badRequest(`Unknown sort field "${sort.by}" (sortable: ${Object.keys(sortable).join(', ')})`, sort.by);
    const where = conditions.length ? and(...conditions) : undefined;
    const order = [sort.direction === 'desc' ? desc(column) : asc(column), desc(alerts.id)];
    const offset = (q.pageNumber - 1) * q.pageSize;
    return listing(async (d) => {
      const filters = Object.entries(q.filter ?? {});
      const fromCounts = filters.every(([field]) => declared(countable, field) !== undefined);
      const countAll = async () => {
        if (fromCounts) {
          const on = filters.map(([field, value]) => filterCondition(field, countable[field]!, value));
          if (searchPattern) on.push(sql`${alertCounts.searchLc} like ${searchPattern}`);
          const [row] = await d.select({ n: sql<string>`coalesce(sum(${alertCounts.n}), 0)` }).from(alertCounts).where(on.length ? and(...on) : undefined);
          return Number(row?.n ?? 0);
        }
        return Number((await d.select({ n: count() }).from(alerts).where(where))[0]?.n ?? 0);
      };
      if (!where) {
        const [rows, total] = await Promise.all([d.select().from(alerts).orderBy(...order).limit(q.pageSize).offset(offset), countAll()]);
        return { result: { data: rows.map(alertToApi), count: total } };
      }
      // Count first, then pick the page by how many match. Many matches (status resolved, a wide
      // date range) lie dense along the sort index, so walking it finds a page at once; few
      // matches may sit at its far end, so those are fetched by their own indexes and sorted.
      const total = await countAll();
      if (total === 0 || offset >= total) return { result: { data: [], count: total } };
      if (total > DENSE_MATCHES) {
        const rows = await d.select().from(alerts).where(where).orderBy(...order).limit(q.pageSize).offset(offset);
        return { result: { data: rows.map(alertToApi), count: total } };
      }
      // Few matches: fetch them by their own indexes (a subquery with OFFSET 0 is planned on its
      // own, so the planner cannot walk the sort index instead, which it did for status in two
      // values: 100,000 rows visited for 700 matches), sort their ids, then read the page's rows.
      const matches = d.select({ id: alerts.id, k: sql`${column}`.as('k') }).from(alerts).where(where).offset(0).as('m');
      const picked = await d
        .select({ id: matches.id })
        .from(matches)
        .orderBy(sort.direction === 'desc' ? desc(matches.k) : asc(matches.k), desc(matches.id))
        .limit(q.pageSize)
        .offset(offset);
      const byId = new Map((picked.length ? await d.select().from(alerts).where(inArray(alerts.id, picked.map((p) => p.id))) : []).map((r) => [r.id, r]));
      const rows = picked.flatMap((p) => (byId.has(p.id) ? [byId.get(p.id)!] : []));
      return { result: { data: rows.map(alertToApi), count: total } };
    });
  });

  app.get('/api/alerts', { preHandler: requirePermission('read') }, async (request) => {
    const raw = (request.query as { id?: string | string[] }).id;
    const ids = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((id) => UUID.test(id));
    if (ids.length > 100) throw badRequest('At most 100 ids at a time', 'id');
    if (!ids.length) return { result: [] };
    return { result: (await db.select().from(alerts).where(inArray(alerts.id, ids))).map(alertToApi) };
  });

  app.get<{ Params: { id: string } }>('/api/alerts/:id', { preHandler: requirePermission('read') }, async (request) => {
    return { result: await detail(db, await findAlert(db, request.params.id)) };
  });

  app.patch<{ Params: { id: string } }>('/api/alerts/:id', { preHandler: requirePermission('alerts.triage') }, async (request) => {
    const parsed = updateAlertSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const input = parsed.data;
    const user = request.user!;
    const found = await findAlert(db, request.params.id);
    auditTarget(request, alertTarget(found));
    auditRelated(request, found.serverId);
    const at = new Date();
    let queued = false;
    try {
      await audited(request, db, async (tx) => {
        const [row] = await tx.select().from(alerts).where(eq(alerts.id, request.params.id)).for('update');
        if (!row) throw notFound(`No alert with id "${request.params.id}"`);
        const snoozedUntil = input.status === 'snoozed' && input.snoozeSeconds ? new Date(at.getTime() + input.snoozeSeconds * 1000) : null;
        const changed = input.status !== row.status;
        await tx
          .update(alerts)
          .set({
            status: input.status,
            updatedAt: at,
            snoozedUntil,
            resolvedAt: input.status === 'resolved' ? (changed ? at : row.resolvedAt) : null,
            // Resolving ends an acknowledgement (issue 14): a reopened alert is nobody's yet.
            ...(input.status === 'resolved' ? NO_ACK : {}),
          })
          .where(eq(alerts.id, row.id));
        const context = await notifyContext(tx as unknown as Db, row);
        // The same status again (or a new snooze length) is a note on the timeline.
        const type = changed || input.status === 'snoozed' ? input.status : 'playbook_action';
        const sent = await recordTransitions(tx as unknown as Db, at, [
          {
            alertId: row.id,
            type,
            note: input.log,
            user: { _id: user._id, username: user.username },
            // Back to Active: the router decides (an acknowledged one is not sent: its owner is on
            // it). Resolved: sent to those who heard it fire, unless it is muted now.
            notify:
              changed &&
              !context.suppressed &&
              (input.status === 'firing' ? !row.ackAt : input.status === 'resolved' ? row.notifiedAt !== null && row.mute === null : false),
            groupId: context.groupId,
          },
        ]);
        if (input.status === 'resolved') await tx.update(alerts).set({ nextActionAt: null }).where(eq(alerts.id, row.id));
        const routed = await evaluator.router.sweep(tx as unknown as Db, at, [row.id]);
        queued = sent + routed.queued > 0;
      });
    } catch (error) {
      if (pgCode(error) === '23505') throw conflict('This server (or check) already has an open alert for the same rule; resolve that one first', 'status');
      throw error;
    }
    // An operator's resolve or reopen is sent now, as the evaluator's transitions are, not on
    // the delivery worker's next poll.
    if (queued) evaluator.onQueued?.();
    return { result: await detail(db, await findAlert(db, request.params.id)) };
  });

  // Issue 14: acknowledge ("I'm on it") and release. The status does not change.
  app.post<{ Params: { id: string } }>('/api/alerts/:id/ack', { preHandler: requirePermission('alerts.triage') }, async (request) => {
    const parsed = ackAlertSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const found = await findAlert(db, request.params.id);
    auditTarget(request, alertTarget(found));
    auditRelated(request, found.serverId);
    const user = request.user!;
    const at = new Date();
    const queued = await audited(request, db, async (tx) => {
      const sent = await acknowledgeAlert(tx as unknown as Db, request.params.id, { _id: user._id, username: user.username }, parsed.data, at);
      return sent + (await evaluator.router.sweep(tx as unknown as Db, at, [request.params.id])).queued;
    });
    if (queued) evaluator.onQueued?.();
    return { result: await detail(db, await findAlert(db, request.params.id)) };
  });

  app.post<{ Params: { id: string } }>('/api/alerts/:id/unack', { preHandler: requirePermission('alerts.triage') }, async (request) => {
    const parsed = unackAlertSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const found = await findAlert(db, request.params.id);
    auditTarget(request, alertTarget(found));
    auditRelated(request, found.serverId);
    const user = request.user!;
    const at = new Date();
    const queued = await audited(request, db, async (tx) => {
      await unacknowledgeAlert(tx as unknown as Db, request.params.id, { _id: user._id, username: user.username }, parsed.data, at);
      return (await evaluator.router.sweep(tx as unknown as Db, at, [request.params.id])).queued;
    });
    if (queued) evaluator.onQueued?.();
    return { result: await detail(db, await findAlert(db, request.params.id)) };
  });

  app.delete<{ Params: { id: string } }>('/api/alerts/:id', { preHandler: requirePermission('alerts.delete') }, async (request) => {
    const row = await findAlert(db, request.params.id);
    auditTarget(request, alertTarget(row));
    auditRelated(request, row.serverId);
    // The timeline and unsent notifications go by cascade.
    await audited(request, db, async (tx) => {
      const gone = await tx.delete(alerts).where(eq(alerts.id, row.id)).returning({ id: alerts.id });
      if (!gone.length) throw notFound(`No alert with id "${row.id}"`);
    });
    return { result: { _id: row.id } };
  });

  registerAlertConfig(app, db);
  registerNotificationGroups(app, db, () => evaluator.trigger());
  registerNotificationChannels(app, db);
  // Issue 14: a new or changed silence is applied by the next tick, which comes at once.
  registerSilences(app, db, () => evaluator.trigger());
  registerMaintenanceWindows(app, db, () => evaluator.trigger());
}
