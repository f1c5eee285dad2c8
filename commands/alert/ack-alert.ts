import { z } from 'zod';
import { ackAlert } from '../../src/api/alerts';
import { queryKeys } from '../../src/api/query-keys';
import { commandLineFilterArgs, namesFilter } from '../alerts/matching-filter';
import { defineCommand, type CommandResult } from '../define-command';
import { CommandError } from '../registry';
import { ackDurationSchema, ackForArg, ackSpan, oneOrFilterShape, optionalNoteArg, optionalNoteSchema } from './ack-fields';
import { alertArg, alertLabel, resolveAlert } from './alert-fields';

export const ackAlertCommand = defineCommand({
  id: 'alert.ack',
  title: 'Acknowledge alert',
  category: 'Alerts',
  description:
    'Take an alert on ("I’m on it"): it stays Active, shows you as its owner, and is not re-notified or escalated until it resolves, or for --for (30m, 2h). With --host/--name/--severity/--status instead of an alert, acknowledges every unowned match after asking (alerts.ack-matching).',
  input: z.object({ ...oneOrFilterShape, note: optionalNoteSchema, for: ackDurationSchema.optional() }),
  args: [{ ...alertArg, optional: true }, optionalNoteArg, ackForArg, ...commandLineFilterArgs],
  permission: 'alerts.triage',
  // Annotated: the hand-over below is typed by the command list, which must not need this body to know its own type.
  async run(input, ctx): Promise<CommandResult> {
    const { alert, note, for: seconds, host, name, severity, status } = input;
    if (!alert) {
      if (!namesFilter(input)) throw new CommandError('Name an alert, or a filter: --host, --name, --severity or --status', 'refused');
      return ctx.run('alerts.ack-matching', { host, name, severity, status, note, for: seconds });
    }
    // One alert or a filter: a filter beside an alert would be dropped without a word.
    if (namesFilter(input)) throw new CommandError('Name an alert or a filter (--host, --name, --severity, --status), not both', 'refused');
    const found = await resolveAlert(ctx.api, alert);
    const { result } = await ackAlert(ctx.api, found._id, { ...(note ? { note } : {}), ...(seconds ? { forSeconds: seconds } : {}) });
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: `Acknowledged **${alertLabel(result)}** ${ackSpan(seconds)}.`, data: result };
  },
});
