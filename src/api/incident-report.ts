import { queryOptions } from '@tanstack/react-query';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** `from` and `to` as ISO 8601 with a zone (or unix ms); `serverId` narrows it to one server. */
export interface IncidentReportWindow {
  from: string;
  to: string;
  serverId?: string;
}

/** Issue 5 §4: the markdown report of a window, built on the server. */
export const getIncidentReport = (api: Api, q: IncidentReportWindow) => call(api, 'incidentReport.get', { query: { from: q.from, to: q.to, serverId: q.serverId } });

export const incidentReportQueryOptions = (q: IncidentReportWindow) =>
  // A fixed window's report changes only when someone adds a note or runs a command: no polling.
  queryOptions({ queryKey: queryKeys.incidentReport.window(q), queryFn: () => getIncidentReport(defaultApi, q), retry: false });
