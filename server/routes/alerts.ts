import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AlertEvaluator } from '../alerting/evaluator';
import { alertToApi, listAlerts } from '../alerting/alert-list';
import { acknowledge, alertDetail, alertTarget, deleteAlert, findAlert, setAlertStatus, unacknowledge } from '../alerting/triage';
import { audited, auditRelated, auditTarget } from '../audit/trail';
import { ackAlertSchema, unackAlertSchema, updateAlertSchema } from '../contract/alerts';
import { listQuerySchema } from '../contract/common';
import type { AlertingSettings } from '../config';
import type { Database } from '../db/client';
import { alerts } from '../db/schema';
import { badRequest, fromZod } from '../http/errors';
import { requirePermission } from '../http/session';
import { registerAlertConfig } from './alert-config';
import { registerNotificationGroups } from './notification-groups';
import { registerNotificationChannels } from './notification-channels';
import { registerMaintenanceWindows } from './maintenance-windows';
import { registerSilences } from './silences';
import { isUuid } from '../contract/ids';

declare module 'fastify' {
  interface FastifyInstance {
    alerting: AlertEvaluator;
  }
}

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

  app.post('/api/alerts/all', { preHandler: requirePermission('read') }, async (request) => {
    const parsed = listQuerySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    return { result: await listAlerts(db, parsed.data) };
  });

  app.get('/api/alerts', { preHandler: requirePermission('read') }, async (request) => {
    const raw = (request.query as { id?: string | string[] }).id;
    const ids = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((id) => isUuid(id));
    if (ids.length > 100) throw badRequest('At most 100 ids at a time', 'id');
    if (!ids.length) return { result: [] };
    return { result: (await db.select().from(alerts).where(inArray(alerts.id, ids))).map(alertToApi) };
  });

  app.get<{ Params: { id: string } }>('/api/alerts/:id', { preHandler: requirePermission('read') }, async (request) => {
    return { result: await alertDetail(db, request.params.id) };
  });

  /** Names the alert in the audit trail (as it reads before the change) and finds it by its server too. */
  const auditAlert = async (request: { params: { id: string } } & Parameters<typeof auditTarget>[0]) => {
    const found = await findAlert(db, request.params.id);
    auditTarget(request, alertTarget(found));
    auditRelated(request, found.serverId);
    return found;
  };

  app.patch<{ Params: { id: string } }>('/api/alerts/:id', { preHandler: requirePermission('alerts.triage') }, async (request) => {
    const parsed = updateAlertSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const user = request.user!;
    await auditAlert(request);
    const queued = await audited(request, db, (tx) => setAlertStatus(tx, evaluator.router, request.params.id, parsed.data, user, new Date()));
    // An operator's resolve or reopen is sent now, as the evaluator's transitions are, not on
    // the delivery worker's next poll.
    if (queued) evaluator.onQueued?.();
    return { result: await alertDetail(db, request.params.id) };
  });

  // Issue 14: acknowledge ("I'm on it") and release. The status does not change.
  app.post<{ Params: { id: string } }>('/api/alerts/:id/ack', { preHandler: requirePermission('alerts.triage') }, async (request) => {
    const parsed = ackAlertSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const user = request.user!;
    await auditAlert(request);
    const queued = await audited(request, db, (tx) => acknowledge(tx, evaluator.router, request.params.id, { _id: user._id, username: user.username }, parsed.data, new Date()));
    if (queued) evaluator.onQueued?.();
    return { result: await alertDetail(db, request.params.id) };
  });

  app.post<{ Params: { id: string } }>('/api/alerts/:id/unack', { preHandler: requirePermission('alerts.triage') }, async (request) => {
    const parsed = unackAlertSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const user = request.user!;
    await auditAlert(request);
    const queued = await audited(request, db, (tx) => unacknowledge(tx, evaluator.router, request.params.id, { _id: user._id, username: user.username }, parsed.data, new Date()));
    if (queued) evaluator.onQueued?.();
    return { result: await alertDetail(db, request.params.id) };
  });

  app.delete<{ Params: { id: string } }>('/api/alerts/:id', { preHandler: requirePermission('alerts.delete') }, async (request) => {
    const row = await auditAlert(request);
    await audited(request, db, (tx) => deleteAlert(tx, row.id));
    return { result: { _id: row.id } };
  });

  registerAlertConfig(app, db);
  registerNotificationGroups(app, db, () => evaluator.trigger());
  registerNotificationChannels(app, db);
  // Issue 14: a new or changed silence is applied by the next tick, which comes at once.
  registerSilences(app, db, () => evaluator.trigger());
  registerMaintenanceWindows(app, db, () => evaluator.trigger());
}
