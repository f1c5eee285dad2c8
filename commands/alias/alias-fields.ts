import { aliasLineSchema, aliasNameSchema } from '../../server/contract/aliases';
import { ApiError } from '../../src/api/client';
import type { ArgSpec, CommandContext } from '../define-command';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { CommandError } from '../registry';

export const aliasNameArg = { name: 'name', label: 'Alias name', kind: 'text', positional: true, placeholder: 'e.g. ack1h (letters, digits, hyphens)' } as const satisfies ArgSpec;
export const aliasLineArg = { name: 'line', label: 'Command line', kind: 'text', positional: true, placeholder: 'e.g. alert.snooze --for 1h' } as const satisfies ArgSpec;
export { aliasLineSchema, aliasNameSchema };

/** The line must name a command this console has, with arguments it takes (checked before anything is stored). */
export function checkAliasLine(ctx: CommandContext, line: string): void {
  if (!ctx.lookup) return;
  try {
    parseCommandLine(line, ctx.lookup);
  } catch (err) {
    throw new CommandError(`line: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The server's 4xx (a field and a message) as the command's error. */
export function aliasError(err: unknown): unknown {
  return err instanceof ApiError && err.status < 500 ? new CommandError(err.message) : err;
}
