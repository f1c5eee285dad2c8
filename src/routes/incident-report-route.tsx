import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { incidentReportQueryOptions } from '../api/incident-report';
import { fixedReportWindow, INCIDENT_REPORT_PATH, incidentReportSearchSchema, reportCall } from '../lib/report-window';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

/**
 * /incident-report?from&to[&server] (issue 5 §4): the report preview and download. A route
 * rather than a drawer so a report's window is a link a colleague can open.
 */
export function incidentReportRoute(parent: AppLayoutRoute) {
  return createRoute({
    getParentRoute: () => parent,
    path: INCIDENT_REPORT_PATH,
    validateSearch: incidentReportSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) => {
      const window = fixedReportWindow(deps.from, deps.to);
      if (window) warm(queryClient.ensureQueryData(incidentReportQueryOptions(reportCall(window, deps.server))));
    },
    component: lazyRouteComponent(() => import('../features/incident-report/incident-report-page'), 'IncidentReportPage'),
  });
}
