import type { CommandContext, CommandResult } from './define-command';
import type { CommandId, CommandInput } from './index';

/**
 * A run whose id and input come from data, not from code (history.rerun reads a recorded line
 * back): the types cannot know them, so the gate checks both at run time, as it does for a line
 * typed on the command line (an unknown id or a bad input is refused with its reason).
 */
export function runRecorded(ctx: CommandContext, id: string, input: unknown): Promise<CommandResult> {
  return ctx.run(id as CommandId, input as CommandInput<CommandId>);
}
