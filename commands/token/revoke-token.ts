import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { revokeToken } from '../../src/api/tokens';
import { defineCommand } from '../define-command';
import { resolveToken } from './resolve-token';

/** Issue 13: ends one of your API tokens at once; scripts using it get 401 from then on. */
export const revokeTokenCommand = defineCommand({
  id: 'token.revoke',
  title: 'Revoke API token',
  category: 'Account',
  input: z.object({ token: z.string().trim().min(1, 'token is required') }),
  args: [{ name: 'token', label: 'Token (name or id)', kind: 'text', positional: true }],
  permission: 'read',
  // Found before asking, so the question names it (live names are unique per person); the run revokes the token found.
  prepare: ({ token }, ctx) => resolveToken(ctx.api, token),
  destructive: { title: 'Revoke API token', message: (_input, found) => `Revoke the API token “${found.name}”? Programs that use it stop working at once.`, confirmLabel: 'Revoke' },
  async run(_input, ctx, found) {
    const { result } = await revokeToken(ctx.api, found._id);
    await ctx.invalidate(queryKeys.tokens.all);
    return { message: `Revoked API token **${result.name}**.`, data: result };
  },
});
