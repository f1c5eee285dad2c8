import type { CommandContext, CommandResult } from './define-command';
import type { CommandId, CommandInput } from './index';

/**
 * A command handing over to another (alert.ack without an alert → alerts.ack-matching): the same
 * gate as `ctx.run`, typed by the id it names, so the input is checked against that command's
 * schema. `ctx.run` itself stays untyped for runs whose id comes from data (history re-runs).
 */
export function runCommand<K extends CommandId>(ctx: CommandContext, id: K, input: CommandInput<K>): Promise<CommandResult> {
  return ctx.run(id, input);
}
