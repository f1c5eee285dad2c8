import type { FastifyInstance } from 'fastify';
import { audited } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { Database } from '../db/client';
import { serve } from '../http/serve';
import { checkAlertGroups, monitoringAlertGroups, setMonitoringAlertGroups } from '../ops/alert-groups';
import { monitoringStatus } from '../ops/freshness-watch';

/**
 * Opsdeck's view of its own monitoring (issue 12): GET /api/monitoring/health for the dashboard
 * banner, and the admin setting of who gets "Monitoring backend unreachable"
 * (server/ops/alert-groups.ts).
 */
export function registerOps(app: FastifyInstance, database: Database): void {
  serve(app, endpoints['monitoring.health'], async () => ({ result: await monitoringStatus(database, app.monitoring, app.freshness, app.leader.isLeader) }));

  serve(app, endpoints['monitoring.alertGroups'], async () => ({ result: await monitoringAlertGroups(database) }));

  serve(app, endpoints['monitoring.setAlertGroups'], async ({ body, request }) => {
    const ids = await checkAlertGroups(database, body);
    await audited(request, database.db, (tx, audit) => setMonitoringAlertGroups(tx, { groupIds: body.groupIds === null ? null : ids }, audit));
    return { result: await monitoringAlertGroups(database) };
  });
}
