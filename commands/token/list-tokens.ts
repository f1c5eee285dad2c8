import { z } from 'zod';
import { tokenScopeLabels } from '../../server/contract/tokens';
import { listTokens } from '../../src/api/tokens';
import { defineCommand } from '../define-command';

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never');

/** Issue 13: your API tokens, live and revoked, with when each was last used. */
export const listTokensCommand = defineCommand({
  id: 'token.list',
  title: 'List API tokens',
  category: 'Account',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    const { result } = await listTokens(ctx.api);
    if (!result.data.length) return { message: 'You have no API tokens. Make one with `token.create --name ci`.', data: [] };
    const rows = result.data.map((t) => `| ${t.name.replace(/\|/g, '\\|')} | \`${t.prefix}…\` | ${tokenScopeLabels[t.scope]} | ${when(t.lastUsedAt)} | ${t.revokedAt ? `revoked ${when(t.revokedAt)}` : 'live'} |`);
    return { message: ['| Name | Token | Scope | Last used | State |', '| --- | --- | --- | --- | --- |', ...rows].join('\n'), data: result.data };
  },
});
