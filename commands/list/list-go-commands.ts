import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { resolveServer } from '../server/resolve-server';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { changeList, listByKey, openList } from './list-views';

/** Opens the Servers list searched by hostname (or IP): `servers.search web`. Empty clears the search. */
export const searchServers = defineCommand({
  id: 'servers.search',
  title: 'Search servers',
  category: 'Lists',
  description: 'Open the Servers list searched by hostname.',
  input: z.object({ text: z.string().max(MAX_TEXT).optional() }).strict(),
  args: [{ name: 'text', label: 'Hostname contains', kind: 'text', positional: true, optional: true }],
  permission: 'read',
  history: false,
  run({ text }, ctx) {
    const list = listByKey('servers');
    const value = text?.trim() || undefined;
    changeList(ctx, list, openList(ctx)?.search ?? {}, { hostname: value });
    return { message: value ? `Servers: hostname contains “${value}”.` : 'Servers: search cleared.' };
  },
});

const statusChoices = [
  { value: 'all', label: 'All' },
  { value: 'firing', label: 'Active' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'snoozed', label: 'Snoozed' },
] as const;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * A day of the Notifications date filter (SPEC §2 filters by day, local time) from what a person
 * types: `2026-11-24`, `today`, `yesterday`, `now`, or a time ago (`-1h`, `-7d`, `-2w`): the day it
 * falls on. Undefined for text that is none of these.
 */
export function dayOf(text: string, now = new Date()): string | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t) && !Number.isNaN(Date.parse(`${t}T00:00:00`))) return t;
  if (t === 'today' || t === 'now') return localDay(now);
  if (t === 'yesterday') return localDay(new Date(now.getTime() - UNIT_MS.d!));
  const m = /^-(\d+)([mhdw])$/.exec(t);
  if (m) return localDay(new Date(now.getTime() - Number(m[1]) * UNIT_MS[m[2]!]!));
  return undefined;
}

const dayField = (name: string) =>
  z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || v === '' || dayOf(v) !== undefined, { message: `${name} must be a day (2026-11-24), today, yesterday, now or a time ago like -1h, -7d` });

/**
 * The Notifications list's filters in one line: `alerts.filter --status firing --from -1h`. Given
 * filters change, the others stay; `--status all` and empty values clear one; none clears all.
 */
export const filterAlerts = defineCommand({
  id: 'alerts.filter',
  title: 'Filter alerts',
  category: 'Lists',
  description: 'Open Notifications filtered by status, hostname and the day range they were triggered in.',
  input: z.object({ status: z.enum(['all', 'firing', 'resolved', 'snoozed']).optional(), host: z.string().max(MAX_TEXT).optional(), from: dayField('From'), to: dayField('To') }).strict(),
  args: [
    { name: 'status', label: 'Status', kind: 'enum', positional: true, optional: true, options: statusChoices },
    { name: 'host', label: 'Hostname contains', kind: 'text', optional: true },
    { name: 'from', label: 'From', kind: 'text', optional: true, placeholder: 'From: 2026-11-24, today, -1h, -7d' },
    { name: 'to', label: 'To', kind: 'text', optional: true, placeholder: 'To: 2026-11-25, today, now' },
  ],
  permission: 'read',
  history: false,
  run({ status, host, from, to }, ctx) {
    const list = listByKey('alerts');
    const open = openList(ctx);
    const search = open?.list.key === 'alerts' ? open.search : {};
    const clearAll = status === undefined && host === undefined && from === undefined && to === undefined;
    const patch: Record<string, unknown> = {};
    if (clearAll || status !== undefined) patch.alertStatus = status === 'all' || clearAll ? undefined : status;
    if (clearAll || host !== undefined) patch.hostname = host?.trim() || undefined;
    if (clearAll || from !== undefined) patch.since = from ? dayOf(from) : undefined;
    if (clearAll || to !== undefined) patch.until = to ? dayOf(to) : undefined;
    changeList(ctx, list, search, patch);
    const next = { ...search, ...patch };
    const parts = [
      `status **${statusChoices.find((c) => c.value === (next.alertStatus ?? 'all'))?.label ?? 'All'}**`,
      next.hostname ? `hostname contains “${String(next.hostname)}”` : null,
      next.since ? `from ${String(next.since)}` : null,
      next.until ? `to ${String(next.until)}` : null,
    ].filter(Boolean);
    return { message: `Notifications: ${parts.join(', ')}.` };
  },
});

/** A server's IP address onto the clipboard (the cards' and rows' copy button). */
export const copyServerIp = defineCommand({
  id: 'server.copy-ip',
  title: 'Copy server IP address',
  category: 'Servers',
  input: z.object({ server: z.string().trim().min(1, 'server is required') }).strict(),
  args: [{ name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true }],
  permission: 'read',
  history: false,
  async run({ server }, ctx) {
    const found = await resolveServer(ctx.api, server);
    if (!ctx.copy) return { message: `${found.hostname}: \`${found.ipaddress}\``, data: found.ipaddress };
    try {
      await ctx.copy(found.ipaddress);
    } catch {
      throw new CommandError(`The browser did not allow copying: ${found.hostname}'s IP address is ${found.ipaddress}.`);
    }
    return { message: `Copied **${found.ipaddress}** (${found.hostname}).`, data: found.ipaddress };
  },
});
