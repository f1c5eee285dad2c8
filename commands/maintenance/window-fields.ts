import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import type { MaintenanceWindow } from '../../server/contract/routing';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getWindow, listWindows } from '../../src/api/maintenance-windows';
import type { ArgSpec } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';
import { matchersSchema, spanSchema, timeSchema } from '../silence/matcher-fields';
import { isUuid } from '../../server/contract/ids';

/** What maintenance.create and maintenance.edit take besides the name. */
export const windowShape = {
  servers: z.union([z.string(), z.array(z.string())]).optional(),
  matchers: matchersSchema.optional(),
  start: timeSchema('start').optional(),
  end: timeSchema('end').optional(),
  for: spanSchema('for').optional(),
  tz: z.string().trim().min(1).max(64).optional(),
  rrule: z.string().trim().max(500).optional(),
  comment: z.string().trim().max(MAX_TEXT).optional(),
};

export const windowArgs = [
  { name: 'servers', label: 'Servers', kind: 'text', optional: true, placeholder: 'Hostnames, comma-separated' },
  { name: 'matchers', label: 'Or matchers', kind: 'text', optional: true, placeholder: 'e.g. label.env=staging' },
  { name: 'start', label: 'Starts', kind: 'datetime', optional: true },
  { name: 'for', label: 'Lasts', kind: 'text', optional: true, placeholder: 'e.g. 2h (or give --end)' },
  { name: 'end', label: 'Ends', kind: 'datetime', optional: true },
  { name: 'rrule', label: 'Repeats (RRULE)', kind: 'text', optional: true, placeholder: 'e.g. FREQ=WEEKLY;BYDAY=SU (empty: once)' },
  { name: 'tz', label: 'Time zone', kind: 'text', optional: true, placeholder: 'e.g. Europe/Berlin (default: this browser’s)' },
  { name: 'comment', label: 'Comment', kind: 'text', optional: true },
] as const satisfies readonly ArgSpec[];

/** Server names (hostname, IP or id, comma-separated, or a list) to ids. */
export async function serverIds(api: Api, servers: string | string[] | undefined): Promise<string[] | undefined> {
  if (servers === undefined) return undefined;
  const refs = (Array.isArray(servers) ? servers : servers.split(',')).map((s) => s.trim()).filter(Boolean);
  const ids: string[] = [];
  for (const ref of refs) ids.push(isUuid(ref) ? ref : (await resolveServer(api, ref))._id);
  return ids;
}

/** The local time zone of whoever runs the command (the browser's), else UTC. */
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** `window` arguments: an id or a (unique part of a) name. */
export async function resolveWindow(api: Api, ref: string): Promise<MaintenanceWindow> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name a maintenance window: its name or id');
  if (isUuid(value)) {
    try {
      return (await getWindow(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      throw new CommandError(`No maintenance window with id "${value}"`);
    }
  }
  const { result } = await listWindows(api, { pageNumber: 1, pageSize: 20, search: value, sort: { by: 'name', direction: 'asc' } });
  const exact = result.data.find((w) => w.name.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  if (result.count === 1) return result.data[0]!;
  if (result.count > 1) throw new CommandError(`${result.count} windows match "${value}": ${result.data.slice(0, 5).map((w) => w.name).join(', ')}. Use the full name or the id.`);
  throw new CommandError(`No maintenance window matches "${value}"`);
}

export const windowArg = { name: 'window', label: 'Maintenance window', kind: 'entity', entity: 'window', positional: true } as const satisfies ArgSpec;

export function windowSummary(w: MaintenanceWindow): string {
  const when = w.next ? `${w.state === 'active' ? 'in progress until' : 'next'} ${new Date(w.state === 'active' ? w.next.end : w.next.start).toLocaleString()}` : 'no occurrence left';
  return `**${w.name}** (${w.rrule ? `repeats ${w.rrule}` : 'once'}, ${when})`;
}
