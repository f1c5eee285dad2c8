import { z } from 'zod';
import type { CommandHistoryEntry } from '../../server/contract/command-history';
import { getHistoryEntry } from '../../src/api/command-history';
import { defineCommand } from '../define-command';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { CommandError } from '../registry';
import { runRecorded } from '../run-command';

/** Runs that go out to the world: re-running one asks first. */
export const ASKS_FIRST: ReadonlySet<string> = new Set(['status.post', 'status.resolve']);

/**
 * Where a re-run makes sense: a command of the registry, run by a person or a script, not what
 * Opsdeck did itself, never a sign-in or sign-out, never a re-run, and with a line or (a browser
 * report) an input to run it from.
 */
export const rerunnable = (e: Pick<CommandHistoryEntry, 'command' | 'actorKind' | 'commandLine' | 'origin'>): boolean =>
  !e.command.includes(' ') && e.actorKind !== 'system' && !e.command.startsWith('session.') && e.command !== 'history.rerun' && (e.commandLine !== null || e.origin === 'client');

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
    const { result } = await getHistoryEntry(ctx.api, entry);
    if (result.command === 'history.rerun') throw new CommandError('A re-run cannot itself be re-run');
    if (!rerunnable(result)) throw new CommandError(`"${result.displayLine ?? result.command}" is not something to run again`);
    // What the world reads asks first: a status post goes out to a public page.
    if (ASKS_FIRST.has(result.command)) {
      const ok = await ctx.confirm({ title: 'Post to the public status page again?', message: `Run \`${result.displayLine ?? result.commandLine ?? result.command}\` again? It posts to a public status page.`, confirmLabel: 'Post again', cancelLabel: 'Cancel' });
      if (!ok) throw new CommandError('Cancelled', 'cancelled');
    }
    // The recorded line re-runs exactly as written (issue 13): read it back as the command line does.
    if (result.commandLine && ctx.lookup) {
      const parsed = parseCommandLine(result.commandLine, ctx.lookup);
      return runRecorded(ctx, parsed.id, parsed.input);
    }
    if (result.origin === 'server') throw new CommandError(`"${result.command}" was an API call made without a command; it cannot be re-run from here`);
    const hasRedacted = JSON.stringify(result.input ?? {}).includes('••••');
    if (hasRedacted) throw new CommandError(`"${result.command}" was run with a secret that the history does not keep; run it again by hand`);
    return runRecorded(ctx, result.command, result.input ?? {});
  },
});
