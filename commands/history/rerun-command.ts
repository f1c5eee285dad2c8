import { z } from 'zod';
import type { CommandHistoryEntry } from '../../server/contract/command-history';
import type { OneResult } from '../../server/contract/common';
import { defineCommand } from '../define-command';
import { parseCommandLine } from '../parse-command-line';
import { CommandError } from '../registry';

export const rerunCommand = defineCommand({
  id: 'history.rerun',
  title: 'Re-run a command from history',
  category: 'History',
  input: z.object({ entry: z.string().min(1, 'entry is required') }),
  args: [{ name: 'entry', label: 'History entry', kind: 'entity', entity: 'command', positional: true }],
  permission: 'read',
  // The re-run itself is recorded (source "history"); recording this wrapper too would double it.
  history: false,
  // Marked history rows re-run one after another.
  bulk: true,
  async run({ entry }, ctx) {
    const { result } = await ctx.api.get<OneResult<CommandHistoryEntry>>(`command-history/${encodeURIComponent(entry)}`);
    if (result.command === 'history.rerun') throw new CommandError('A re-run cannot itself be re-run');
    // The recorded line re-runs exactly as written (issue 13): read it back as the command line does.
    if (result.commandLine && ctx.lookup) {
      const parsed = parseCommandLine(result.commandLine, ctx.lookup);
      return ctx.run(parsed.id, parsed.input);
    }
    if (result.origin === 'server') throw new CommandError(`"${result.command}" was an API call made without a command; it cannot be re-run from here`);
    const hasRedacted = JSON.stringify(result.input ?? {}).includes('••••');
    if (hasRedacted) throw new CommandError(`"${result.command}" was run with a secret that the history does not keep; run it again by hand`);
    return ctx.run(result.command, result.input ?? {});
  },
});
