import { z } from 'zod';
import { unackAlert } from '../../src/api/alerts';
import { queryKeys } from '../../src/api/query-keys';
import { commandLineFilterArgs, namesFilter } from '../alerts/matching-filter';
import { defineCommand, type CommandResult } from '../define-command';
import { CommandError } from '../registry';
import { oneOrFilterShape, optionalNoteArg, optionalNoteSchema } from './ack-fields';
import { alertArg, alertLabel, resolveAlert } from './alert-fields';

export const unackAlertCommand = defineCommand({
  id: 'alert.unack',
  title: 'Release acknowledgement',
  category: 'Alerts',
  description:
    'Drop an alert’s acknowledgement (yours or someone else’s): it is unowned again, and repeats and escalation resume. With --host/--name/--severity/--status instead of an alert, releases every acknowledged match after asking (alerts.unack-matching).',
  input: z.object({ ...oneOrFilterShape, note: optionalNoteSchema }),
  args: [{ ...alertArg, optional: true }, optionalNoteArg, ...commandLineFilterArgs],
  permission: 'alerts.triage',
  // Annotated: the hand-over below is typed by the command list, which must not need this body to know its own type.
  async run(input, ctx): Promise<CommandResult> {
    const { alert, note, host, name, severity, status } = input;
    if (!alert) {
      if (!namesFilter(input)) throw new CommandError('Name an alert, or a filter: --host, --name, --severity or --status', 'refused');
      return ctx.run('alerts.unack-matching', { host, name, severity, status, note });
    }
    // One alert or a filter: a filter beside an alert would be dropped without a word.
    if (namesFilter(input)) throw new CommandError('Name an alert or a filter (--host, --name, --severity, --status), not both', 'refused');
    const found = await resolveAlert(ctx.api, alert);
    if (!found.acknowledgement) throw new CommandError(`**${alertLabel(found)}** is not acknowledged`, 'refused');
    const { result } = await unackAlert(ctx.api, found._id, note ? { note } : {});
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: `Released the acknowledgement of **${alertLabel(result)}** (was ${found.acknowledgement.by.username}).`, data: result };
  },
});
