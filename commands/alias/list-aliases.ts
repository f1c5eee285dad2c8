import { z } from 'zod';
import { listAliases } from '../../src/api/aliases';
import { defineCommand } from '../define-command';

export const listAliasesCommand = defineCommand({
  id: 'alias.list',
  title: 'List aliases',
  category: 'Aliases',
  description: 'Your aliases and the command lines they run.',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    const { result } = await listAliases(ctx.api);
    if (!result.length) return { message: 'You have no aliases yet. Make one with `alias.set ack1h "alert.snooze --for 1h"`.', data: result };
    return { message: result.map((a) => `- \`${a.name}\` → \`${a.line}\``).join('\n'), data: result };
  },
});
