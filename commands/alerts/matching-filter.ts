import { z } from 'zod';
import { alertStatuses, alertStatusLabels, severities, type Alert, type AlertStatus } from '../../server/contract/alerts';
import type { ListQuery } from '../../server/contract/common';
import type { Api } from '../../src/api/client';
import { listAlerts } from '../../src/api/alerts';
import type { ArgSpec } from '../define-command';
import { CommandError } from '../registry';

/**
 * The filter of the bulk alert commands (alerts.resolve-matching, alerts.snooze-matching):
 * host (hostname contains), name (alert name contains), severity and status, as the alerts list
 * filters them (SPEC §7). Each command's `prepare` counts the matches, so the confirmation can
 * say how many alerts it is about to change.
 */
export const matchingFilterShape = {
  host: z.string().trim().min(1, 'host must not be empty').max(200).optional(),
  name: z.string().trim().min(1, 'name must not be empty').max(200).optional(),
  severity: z.enum(severities, { error: `severity must be one of ${severities.join(', ')}` }).optional(),
  status: z.enum(alertStatuses, { error: `status must be one of ${alertStatuses.join(', ')}` }).optional(),
};
export type MatchingFilter = { host?: string; name?: string; severity?: (typeof severities)[number]; status?: AlertStatus };

export const matchingFilterArgs = [
  { name: 'host', label: 'Hostname contains', kind: 'text', optional: true, placeholder: 'e.g. web-' },
  { name: 'name', label: 'Alert name contains', kind: 'text', optional: true, placeholder: 'e.g. disk' },
  { name: 'severity', label: 'Severity', kind: 'enum', optional: true, options: severities.map((s) => ({ value: s, label: s })) },
  { name: 'status', label: 'Status', kind: 'enum', optional: true, options: alertStatuses.map((s) => ({ value: s, label: alertStatusLabels[s] })) },
] as const satisfies readonly ArgSpec[];

/** The filter on a one-alert command's command line (`alert.ack --severity critical`); its -matching command asks for it in the palette. */
export const commandLineFilterArgs = matchingFilterArgs.map((a) => ({ ...a, inPalette: false as const }));

/** Whether an input names a bulk filter (`alert.ack --host web` hands over to `alerts.ack-matching`). */
export const namesFilter = (f: MatchingFilter) => !!(f.host || f.name || f.severity || f.status);

/** Which statuses a bulk action may change, and which it takes when no status is named. */
export interface BulkAction {
  verb: string;
  /** Statuses the action applies to; naming another is refused. */
  from: readonly AlertStatus[];
  /** Only alerts acknowledged (true) or not (false): acknowledging takes the unowned ones, releasing the owned ones. */
  acknowledged?: boolean;
}
export const bulkActions = {
  resolve: { verb: 'Resolve', from: ['firing', 'snoozed'] },
  snooze: { verb: 'Snooze', from: ['firing', 'snoozed'] },
  ack: { verb: 'Acknowledge', from: ['firing', 'snoozed'], acknowledged: false },
  unack: { verb: 'Release', from: ['firing', 'snoozed'], acknowledged: true },
} as const satisfies Record<string, BulkAction>;

/** The list query's filter for a bulk filter: at least one criterion, and only statuses the action can change. */
export function matchingListFilter(f: MatchingFilter, action: BulkAction): NonNullable<ListQuery['filter']> {
  if (!f.host && !f.name && !f.severity && !f.status) throw new CommandError('Name at least one of --host, --name, --severity or --status', 'refused');
  if (f.status && !action.from.includes(f.status)) {
    throw new CommandError(`${action.verb} works on ${action.from.map((s) => alertStatusLabels[s]).join(' or ')} alerts, not ${alertStatusLabels[f.status]} ones`, 'refused');
  }
  return {
    ...(f.host ? { hostname: { contains: f.host } } : {}),
    ...(f.name ? { alertname: { contains: f.name } } : {}),
    ...(f.severity ? { severity: { eq: f.severity } } : {}),
    status: f.status ? { eq: f.status } : { in: [...action.from] },
    ...(action.acknowledged !== undefined ? { acknowledged: action.acknowledged } : {}),
  };
}

/** "host web, severity critical" — the filter in words, for the confirmation and the result. */
export function describeFilter(f: MatchingFilter): string {
  const parts = [f.host && `host contains “${f.host}”`, f.name && `name contains “${f.name}”`, f.severity && `severity ${f.severity}`, f.status && `status ${alertStatusLabels[f.status]}`];
  return parts.filter(Boolean).join(', ');
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Resolve 12 alerts?" */
export function confirmQuestion(action: BulkAction, matched: number): string {
  return `${action.verb} ${plural(matched, 'alert')}?`;
}

export async function countMatching(api: Api, filter: NonNullable<ListQuery['filter']>): Promise<number> {
  const { result } = await listAlerts(api, { pageNumber: 1, pageSize: 1, filter });
  return result.count;
}

const PAGE = 100;
/** Largest bulk change in one run; more is refused so a slip of the filter cannot touch everything. */
export const MAX_BULK = 5000;

/**
 * Every matching alert, oldest page first. All ids are collected before anything changes:
 * changing a status moves alerts out of a status filter, so paging while changing would skip
 * every other page.
 */
export async function collectMatching(api: Api, filter: NonNullable<ListQuery['filter']>): Promise<Alert[]> {
  const found = new Map<string, Alert>();
  for (let page = 1; ; page++) {
    const { result } = await listAlerts(api, { pageNumber: page, pageSize: PAGE, filter, sort: { by: 'createdAt', direction: 'desc' } });
    if (result.count > MAX_BULK) throw new CommandError(`${result.count} alerts match; narrow the filter (at most ${MAX_BULK} at a time)`, 'refused');
    for (const a of result.data) found.set(a._id, a);
    if (result.data.length < PAGE || page * PAGE >= result.count) break;
  }
  return [...found.values()];
}

/** Runs `change` over the alerts a few at a time; failures are counted, not fatal, and reported. */
export async function changeAll(alerts: Alert[], change: (a: Alert) => Promise<unknown>, concurrency = 4): Promise<{ ok: number; failed: { alert: Alert; error: string }[] }> {
  let next = 0;
  let ok = 0;
  const failed: { alert: Alert; error: string }[] = [];
  const worker = async () => {
    while (next < alerts.length) {
      const a = alerts[next++]!;
      try {
        await change(a);
        ok++;
      } catch (err) {
        failed.push({ alert: a, error: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, alerts.length) }, worker));
  return { ok, failed };
}

export function summary(verbPast: string, filter: MatchingFilter, result: { ok: number; failed: { alert: Alert; error: string }[] }): string {
  const base = `${verbPast} ${plural(result.ok, 'alert')} matching ${describeFilter(filter)}.`;
  if (!result.failed.length) return base;
  const first = result.failed.slice(0, 3).map((f) => `${f.alert.alertname} on ${f.alert.hostname}: ${f.error}`).join('; ');
  return `${base} ${plural(result.failed.length, 'alert')} failed (${first}).`;
}
