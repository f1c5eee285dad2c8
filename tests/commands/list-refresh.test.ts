import { describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import type { Role } from '../../server/contract/permissions';

/** Only what a refresh may touch: who runs it and the query cache. An API call would throw. */
function context(role: Role): CommandContext {
  const ctx: Pick<CommandContext, 'user' | 'invalidate'> = { user: { _id: 'u1', username: 'ann', email: 'ann@x', role }, invalidate: vi.fn(async () => {}) };
  return ctx as CommandContext;
}

/** Each list's Refresh and the queries it fetches again: the list's own, nothing else. */
const lists = {
  'server.refresh': ['servers', 'list'],
  'check.refresh': ['checks', 'list'],
  'alerts.refresh': ['alerts', 'list'],
  'group.refresh': ['notification-groups'],
  'status.refresh': ['status-pages', 'list'],
  'user.refresh': ['users', 'list'],
} as const;

describe('list refresh commands', () => {
  const registry = createAppRegistry();
  for (const [id, key] of Object.entries(lists)) {
    it(`${id} fetches its list again, calls no API and stays out of History`, async () => {
      const ctx = context('admin');
      await registry.dispatch(id, {}, { source: 'ui', ctx });
      expect(ctx.invalidate).toHaveBeenCalledTimes(1);
      expect(ctx.invalidate).toHaveBeenCalledWith(key);
      expect(registry.get(id)?.history).toBe(false);
    });
  }

  it('the users list refreshes only for those who may read it; status pages for everyone signed in', () => {
    expect(registry.check('user.refresh', context('user'))).not.toBe(true);
    expect(registry.check('user.refresh', context('admin'))).toBe(true);
    expect(registry.check('status.refresh', context('user'))).toBe(true);
  });
});
