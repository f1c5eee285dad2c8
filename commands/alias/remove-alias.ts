import { z } from 'zod';
import { deleteAlias } from '../../src/api/aliases';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { aliasError, aliasNameArg, aliasNameSchema } from './alias-fields';

export const removeAlias = defineCommand({
  id: 'alias.remove',
  title: 'Remove alias',
  category: 'Aliases',
  description: 'Forget one of your aliases.',
  input: z.object({ name: aliasNameSchema }),
  args: [aliasNameArg],
  permission: 'read',
  inverse: ({ name }, result) => {
    const line = (result.data as { line?: string } | undefined)?.line;
    return line ? { id: 'alias.set', input: { name, line } } : null;
  },
  async run({ name }, ctx) {
    const { result } = await deleteAlias(ctx.api, name).catch((err: unknown) => {
      throw aliasError(err);
    });
    await ctx.invalidate(queryKeys.aliases.all);
    return { message: `Removed the alias \`${result.name}\` (\`${result.line}\`).`, data: result };
  },
});
