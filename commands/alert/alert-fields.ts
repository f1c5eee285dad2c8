import { z } from 'zod';
import { parseDuration } from '../../server/contract/duration';
import { alertStatusLabels, MAX_NOTE, MAX_SNOOZE_SECONDS, type Alert, type AlertDetail, type AlertStatus } from '../../server/contract/alerts';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getAlert, listAlerts, updateAlert } from '../../src/api/alerts';
import { staleAfter } from '../../src/api/query-keys';
import type { ArgSpec, CommandContext, CommandResult, InverseRun } from '../define-command';
import { CommandError } from '../registry';
import { invalidateAll } from '../stale';
import { isUuid } from '../../server/contract/ids';
import { alertRef, alertsByRef, parseAlertRef } from './alert-ref';

const SHOWN = 5;

export const alertLabel = (a: Pick<Alert, 'alertname' | 'hostname'>) => `${a.alertname.replace(/_/g, ' ')} on ${a.hostname}`;

/**
 * `alert` arguments take an id (what the palette and the screens pass) or, on the command line,
 * a ref (`high_cpu_usage@db-02`, what Tab completes to: see alert-ref.ts) or words that match
 * exactly one alert (hostname, IP, alert name, service), newest first; several matches are
 * listed so the person can pick one.
 */
export async function resolveAlert(api: Api, ref: string): Promise<AlertDetail> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name an alert: its id, or words matching one alert');
  if (isUuid(value)) {
    try {
      return (await getAlert(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      throw new CommandError(`No alert with id "${value}"`);
    }
  }
  const parsedRef = parseAlertRef(value);
  if (parsedRef) {
    const named = await alertsByRef(api, parsedRef);
    if (named.length === 1) return (await getAlert(api, named[0]!._id)).result;
    if (named.length > 1) {
      throw new CommandError(`${named.length} open alerts are ${value}: ${named.map((a) => `\`${alertRef(a, true)}\``).join(', ')}. Add the service, mount point or volume after a colon.`);
    }
    // Not a ref of any alert: read as words below (an address with an @, say).
  }
  const { result } = await listAlerts(api, { pageNumber: 1, pageSize: SHOWN, search: value, sort: { by: 'createdAt', direction: 'desc' } });
  if (result.count === 1 && result.data[0]) return (await getAlert(api, result.data[0]._id)).result;
  if (result.count > 1) {
    const list = result.data.map((a) => `${alertLabel(a)} (${alertStatusLabels[a.status]}) \`${a._id}\``).join(', ');
    const more = result.count > SHOWN ? ` and ${result.count - SHOWN} more` : '';
    throw new CommandError(`${result.count} alerts match "${value}": ${list}${more}. Use the id.`);
  }
  throw new CommandError(`No alert matches "${value}"`);
}

/** SPEC §5 alert action form: notes are required ('Add Notes'); the API takes them as `log`. */
export const noteSchema = z.string({ error: 'Add Notes' }).trim().min(1, 'Add Notes').max(MAX_NOTE, `The note is too long (at most ${MAX_NOTE} characters)`);
export const alertRefSchema = z.string({ error: 'alert is required' }).trim().min(1, 'alert is required');

export const alertArg = { name: 'alert', label: 'Alert', kind: 'entity', entity: 'alert', positional: true } as const satisfies ArgSpec;
export const noteArg = { name: 'note', label: 'Notes', kind: 'text', placeholder: 'What was done, or why (markdown)' } as const satisfies ArgSpec;

/**
 * A duration as typed ("30m") or, from a history re-run, the seconds it was parsed to, between
 * 1 minute and 30 days; `what` names it in the message ("A snooze lasts …").
 */
export const boundedDurationSchema = (what: string) =>
  z.union([z.string(), z.number()], { error: 'Give a duration like 30m, 2h, 1h30m or 1d' }).transform((v, ctx) => {
    const s = typeof v === 'number' ? v : parseDuration(v);
    if (s === undefined || !Number.isInteger(s)) {
      ctx.addIssue({ code: 'custom', message: 'Give a duration like 30m, 2h, 1h30m or 1d' });
      return z.NEVER;
    }
    if (s < 60 || s > MAX_SNOOZE_SECONDS) {
      ctx.addIssue({ code: 'custom', message: `${what} lasts from 1 minute to 30 days` });
      return z.NEVER;
    }
    return s;
  });
export const durationSchema = boundedDurationSchema('A snooze');

/** One status change (or note) through the API, then the lists and this alert refresh. */
export async function setAlertStatus(ctx: CommandContext, alert: AlertDetail, status: AlertStatus, note: string, snoozeSeconds?: number): Promise<AlertDetail> {
  const { result } = await updateAlert(ctx.api, alert._id, { status, log: note, ...(snoozeSeconds ? { snoozeSeconds } : {}) });
  await invalidateAll(ctx, staleAfter.alert);
  return result;
}

/** What a status change replaced, kept in the run's result for its undo. */
export type StatusBefore = Pick<Alert, '_id' | 'status' | 'snoozedUntil'>;
export const statusBefore = (a: Alert): StatusBefore => ({ _id: a._id, status: a.status, snoozedUntil: a.snoozedUntil });

/**
 * Undo of alert.resolve / reopen / snooze: the status the alert had before, with what was left
 * of a timed snooze (at least a minute). Nothing to undo when the status did not change (a note
 * was added to an alert already in that status).
 */
export function undoStatusChange(result: CommandResult, now = Date.now()): InverseRun | null {
  const before = result.before as StatusBefore | undefined;
  const after = result.data as Pick<Alert, 'status' | 'snoozedUntil'> | undefined;
  if (!before || !after || (before.status === after.status && before.snoozedUntil === after.snoozedUntil)) return null;
  const note = 'Undo of the previous change';
  const alert = before._id;
  if (before.status === 'firing') return { id: 'alert.reopen', input: { alert, note } };
  if (before.status === 'resolved') return { id: 'alert.resolve', input: { alert, note } };
  const left = before.snoozedUntil ? Math.min(MAX_SNOOZE_SECONDS, Math.max(60, Math.round((Date.parse(before.snoozedUntil) - now) / 1000))) : undefined;
  return { id: 'alert.snooze', input: { alert, note, ...(left !== undefined ? { for: left } : {}) } };
}
