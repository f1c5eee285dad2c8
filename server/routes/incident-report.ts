import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { serve } from '../http/serve';
import { incidentReport } from '../incident/report';

/** `GET /api/incident-report?from&to[&serverId]` (issue 5 §4): the markdown report of a window (server/incident/report.ts). */
export function registerIncidentReport(app: FastifyInstance, db: Db, alertRetentionDays = 0): void {
  serve(app, endpoints['incidentReport.get'], async ({ query }) => ({ result: await incidentReport(db, query, alertRetentionDays) }));
}
