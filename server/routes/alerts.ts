import type { FastifyInstance } from 'fastify';
import type { AlertEvaluator } from '../alerting/evaluator';
import { listAlerts } from '../alerting/alert-list';
import { acknowledgeOne, alertDetail, alertsByIds, changeAlertStatus, removeAlert, unacknowledgeOne } from '../alerting/triage';
import { audited } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';

/**
 * SPEC §7 alerts: list, by ids, one with its timeline, triage (status with a note, acknowledge,
 * release) and delete. A change that queued notifications wakes the evaluator's senders at once,
 * as its own transitions do, not on the delivery worker's next poll.
 */
export function registerAlerts(app: FastifyInstance, db: Db, evaluator: AlertEvaluator): void {
  serve(app, endpoints['alerts.list'], async ({ body }) => ({ result: await listAlerts(db, body) }));

  serve(app, endpoints['alerts.byIds'], async ({ query }) => ({ result: await alertsByIds(db, query) }));

  serve(app, endpoints['alerts.get'], async ({ params }) => ({ result: await alertDetail(db, params.id) }));

  serve(app, endpoints['alerts.update'], async ({ params, body, user, request }) => {
    const queued = await audited(request, db, (tx, audit) => changeAlertStatus(tx, evaluator.router, { id: params.id, ...body }, user, audit));
    if (queued) evaluator.onQueued?.();
    return { result: await alertDetail(db, params.id) };
  });

  // Issue 14: acknowledge ("I'm on it") and release. The status does not change.
  serve(app, endpoints['alerts.ack'], async ({ params, body, user, request }) => {
    const queued = await audited(request, db, (tx, audit) => acknowledgeOne(tx, evaluator.router, { id: params.id, ...body }, user, audit));
    if (queued) evaluator.onQueued?.();
    return { result: await alertDetail(db, params.id) };
  });

  serve(app, endpoints['alerts.unack'], async ({ params, body, user, request }) => {
    const queued = await audited(request, db, (tx, audit) => unacknowledgeOne(tx, evaluator.router, { id: params.id, ...body }, user, audit));
    if (queued) evaluator.onQueued?.();
    return { result: await alertDetail(db, params.id) };
  });

  serve(app, endpoints['alerts.remove'], async ({ params, request }) => ({ result: await audited(request, db, (tx, audit) => removeAlert(tx, params, audit)) }));
}
