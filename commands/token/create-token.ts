import { z } from 'zod';
import { tokenScopeLabels } from '../../server/contract/tokens';
import { queryKeys } from '../../src/api/query-keys';
import { createToken } from '../../src/api/tokens';
import { defineCommand } from '../define-command';

/**
 * Issue 13: a personal API token for scripts and curl (`Authorization: Bearer …`), acting as you
 * with your role, or read-only. The token is shown once: only its hash is kept.
 */
export const createTokenCommand = defineCommand({
  id: 'token.create',
  title: 'Create API token',
  category: 'Account',
  description: 'A personal token for scripts and curl: --name ci [--read-only]. Shown once.',
  input: z.object({ name: z.string().trim().min(1, 'name is required').max(100, 'name is too long (at most 100 characters)'), readOnly: z.boolean().optional() }),
  args: [
    { name: 'name', label: 'Token name', kind: 'text', positional: true, placeholder: 'What uses it, e.g. ci-deploy' },
    { name: 'readOnly', label: 'Read only', kind: 'boolean', optional: true },
  ],
  permission: 'read',
  async run({ name, readOnly }, ctx) {
    const { result } = await createToken(ctx.api, { name, scope: readOnly ? 'read' : 'role' });
    await ctx.invalidate(queryKeys.tokens.all);
    return {
      message: `API token **${result.name}** (${tokenScopeLabels[result.scope]}): \`${result.token}\`\n\nCopy it now: it is not shown again. Use it as \`Authorization: Bearer …\`.`,
      data: result,
    };
  },
});
