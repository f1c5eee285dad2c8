import { z } from 'zod';
import { listAliases, putAlias } from '../../src/api/aliases';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { aliasError, aliasLineArg, aliasLineSchema, aliasNameArg, aliasNameSchema, checkAliasLine } from './alias-fields';

/**
 * `alias.set ack1h "alert.snooze --for 1h"`: a name of your own for a command line, kept on the
 * server for you alone. Typing `ack1h <alert> --note …` runs the line with those words added; the
 * palette lists it beside the commands and asks for what the line leaves out.
 */
export const setAlias = defineCommand({
  id: 'alias.set',
  title: 'Set alias',
  category: 'Aliases',
  description: 'Name a command line of your own, e.g. `alias.set ack1h "alert.snooze --for 1h"`; then `ack1h <alert> --note …` runs it.',
  input: z.object({ name: aliasNameSchema, line: aliasLineSchema }),
  args: [aliasNameArg, aliasLineArg],
  permission: 'read',
  inverse: ({ name }, result) => {
    const before = result.before as { line: string | null } | undefined;
    if (!before) return null;
    return before.line === null ? { id: 'alias.remove', input: { name } } : { id: 'alias.set', input: { name, line: before.line } };
  },
  async run({ name, line }, ctx) {
    checkAliasLine(ctx, line);
    const existing = (await listAliases(ctx.api)).result.find((a) => a.name === name);
    if (existing?.line === line) return { message: `\`${name}\` already runs \`${line}\`.` };
    const { result } = await putAlias(ctx.api, name, { line }).catch((err: unknown) => {
      throw aliasError(err);
    });
    await ctx.invalidate(queryKeys.aliases.all);
    return { message: `\`${result.name}\` now runs \`${result.line}\`${existing ? ` (was \`${existing.line}\`)` : ''}.`, data: result, before: { line: existing?.line ?? null } };
  },
});
