import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { historyExportUrl } from '../../src/api/command-history';
import { DEFAULT_REPORT_FROM, DEFAULT_REPORT_TO, historyFileName, resolveReportWindow } from '../../src/lib/report-window';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';

const when = z.union([z.string().trim().min(1).max(64), z.number()]);

/**
 * Issue 11 §2: the audit trail of a window as JSON Lines (one record per line, oldest first),
 * beside the incident report's markdown — for auditors and for tools. Same window as the report.
 */
export const exportHistory = defineCommand({
  id: 'history.export',
  title: 'Export command history (JSON Lines)',
  category: 'History',
  description: 'Every record of a window, one JSON object per line: --from -6h --to now [--server web-1].',
  input: z.object({ from: when.optional(), to: when.optional(), server: z.string().trim().min(1).max(MAX_TEXT).optional() }),
  args: [
    { name: 'from', label: 'Start', kind: 'datetime', optional: true, placeholder: `Start: ${DEFAULT_REPORT_FROM}, -1h, -2d or 2026-11-23T09:00Z (UTC)` },
    { name: 'to', label: 'End', kind: 'datetime', optional: true, placeholder: `End: ${DEFAULT_REPORT_TO}, -1h or 2026-11-23T12:00Z (UTC)` },
    { name: 'server', label: 'Server (all when empty)', kind: 'entity', entity: 'server', optional: true },
  ],
  permission: 'read',
  // Reading the log changes nothing.
  history: false,
  async run({ from, to, server }, ctx) {
    const window = resolveReportWindow(from, to, Date.now());
    if (typeof window === 'string') throw new CommandError(window);
    const found = server ? await resolveServer(ctx.api, server) : null;
    const url = historyExportUrl({ from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString(), serverId: found?._id });
    const name = historyFileName(window.from, window.to);
    ctx.download?.(url, name);
    return { message: `${ctx.download ? 'Downloading' : 'Download'} [${name}](${url})${found ? ` for **${found.hostname}**` : ''}.`, data: { url, name } };
  },
});
