import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { DEFAULT_REPORT_FROM, DEFAULT_REPORT_TO, incidentReportHref, resolveReportWindow } from '../../src/lib/report-window';
import { defineCommand, type ArgSpec } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';

const when = z.union([z.string().trim().min(1).max(64), z.number()]);
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** A report window's arguments, shared by the incident report and the history export (the same window). */
export const reportWindowInput = z.object({ from: when.optional(), to: when.optional(), server: z.string().trim().min(1).max(MAX_TEXT).optional() });
export const reportWindowArgs: ArgSpec<'from' | 'to' | 'server'>[] = [
    { name: 'from', label: 'Start', kind: 'datetime', optional: true, placeholder: `Start: ${DEFAULT_REPORT_FROM}, -1h, -2d or 2026-11-23T09:00Z (UTC)` },
    { name: 'to', label: 'End', kind: 'datetime', optional: true, placeholder: `End: ${DEFAULT_REPORT_TO}, -1h or 2026-11-23T12:00Z (UTC)` },
    { name: 'server', label: 'Server (all when empty)', kind: 'entity', entity: 'server', optional: true },
];

/**
 * Issue 5 §4: opens the incident report of a window — the alerts and their notes interleaved
 * with the commands people ran — for all servers or one. Relative ends (`-6h`, `now`) are fixed
 * when it runs, so the screen shows (and the download names) one exact window.
 */
export const reportIncident = defineCommand({
  id: 'incident.report',
  title: 'Incident report',
  category: 'Incident',
  description: 'The alerts, notes and commands of a window as markdown, to preview and download: --from -6h --to now [--server web-1].',
  input: reportWindowInput,
  args: reportWindowArgs,
  permission: 'read',
  // Opening a view changes nothing; the commands it reports on are what the log is for.
  history: false,
  async run({ from, to, server }, ctx) {
    const window = resolveReportWindow(from, to, Date.now());
    if (typeof window === 'string') throw new CommandError(window);
    const found = server ? await resolveServer(ctx.api, server) : null;
    ctx.navigate(incidentReportHref(window, found?._id));
    const scope = found ? `**${found.hostname}**` : '**all servers**';
    return { message: `Incident report for ${scope}, ${utc(window.from)} to ${utc(window.to)} UTC.`, data: { ...window, serverId: found?._id ?? null } };
  },
});
