import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import { INCIDENT_REPORT_PATH, incidentReportSearchSchema } from '../lib/report-window';

/**
 * /incident-report?from&to[&server] (issue 5 §4): the report preview and download. A route
 * rather than a drawer so a report's window is a link a colleague can open.
 */
export function incidentReportRoute<P extends AnyRoute>(parent: P) {
  return createRoute({
    getParentRoute: () => parent,
    path: INCIDENT_REPORT_PATH,
    validateSearch: incidentReportSearchSchema,
    component: lazyRouteComponent(() => import('../features/incident-report/incident-report-page'), 'IncidentReportPage'),
  });
}
