import { historyExportUrl } from '../../src/api/command-history';
import { historyFileName, resolveReportWindow } from '../../src/lib/report-window';
import { defineCommand } from '../define-command';
import { reportWindowArgs, reportWindowInput } from '../incident/report-incident';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';


/**
 * Issue 11 §2: the audit trail of a window as JSON Lines (one record per line, oldest first),
 * beside the incident report's markdown — for auditors and for tools. Same window as the report.
 */
export const exportHistory = defineCommand({
  id: 'history.export',
  title: 'Export command history (JSON Lines)',
  category: 'History',
  description: 'Every record of a window, one JSON object per line: --from -6h --to now [--server web-1].',
  input: reportWindowInput,
  args: reportWindowArgs,
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
