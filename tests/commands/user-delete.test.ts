import { describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { CommandError } from '../../commands/registry';
import type { Api } from '../../src/api/client';

const ANN = { _id: '11111111-1111-4111-8111-111111111111', username: 'ann', email: 'ann@example.com', phonenumber: '1', role: 'user', status: 'active', avatarUrl: null, createdAt: '2026-01-01T00:00:00Z' };

/** A users API with one user, ann, that records every call. */
function fakeApi() {
  const calls: { method: string; path: string; body?: any }[] = [];
  const api = {
    get: vi.fn(async (path: string) => {
      calls.push({ method: 'GET', path });
      if (path === `users/${ANN._id}`) return { result: ANN };
      throw Object.assign(new Error('Not found'), { status: 404 });
    }),
    post: vi.fn(async (path: string, body?: any) => {
      calls.push({ method: 'POST', path, body });
      if (path === 'users/all') {
        const f = body?.filter ?? {};
        const hit = f.username?.eq === ANN.username || f.email?.eq === ANN.email;
        return { result: { data: hit ? [ANN] : [], count: hit ? 1 : 0 } };
      }
      return { result: {} };
    }),
    patch: vi.fn(),
    delete: vi.fn(async (path: string) => {
      calls.push({ method: 'DELETE', path });
      return { result: { _id: ANN._id } };
    }),
  } as unknown as Api;
  return { api, calls };
}

function context(api: Api, confirm: boolean): CommandContext {
  return {
    api,
    user: { _id: 'admin-id', username: 'admin', email: 'admin@x', role: 'admin' },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => confirm),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(),
  };
}

describe('user.delete through the gate', () => {
  it('says "No user matches" before asking, and neither asks nor deletes', async () => {
    const { api, calls } = fakeApi();
    const ctx = context(api, true);
    const err = await createAppRegistry().run('user.delete', { user: 'nobody' }, { source: 'cmdline', ctx }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as CommandError).message).toBe('No user matches "nobody"');
    expect(ctx.confirm).not.toHaveBeenCalled();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    // Nothing happened on the server, so History holds nothing of it (issue 25 §3).
    expect(calls.some((c) => c.path === 'command-history')).toBe(false);
  });

  it('resolves a username or an email, asks with the SPEC text and Yes/No, then deletes by id', async () => {
    for (const ref of ['ann', 'ann@example.com']) {
      const { api, calls } = fakeApi();
      const ctx = context(api, true);
      const result = await createAppRegistry().run('user.delete', { user: ref }, { source: 'palette', ctx });
      expect(ctx.confirm).toHaveBeenCalledWith({ title: 'Delete User', message: 'Are you sure to delete this user?', target: 'ann · ann@example.com · user', confirmLabel: 'Yes', cancelLabel: 'No' });
      expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: `users/${ANN._id}` }]);
      // The user is looked up once, before the question: the run deletes the one it found.
      expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST users/all', `DELETE users/${ANN._id}`]);
      expect(result.message).toContain('ann');
      expect(ctx.navigate).toHaveBeenCalledWith('/users');
    }
  });

  it('a declined confirmation is cancelled and deletes nothing', async () => {
    const { api, calls } = fakeApi();
    const err = await createAppRegistry().run('user.delete', { user: 'ann' }, { source: 'ui', ctx: context(api, false) }).catch((e: unknown) => e);
    expect((err as CommandError).outcome).toBe('cancelled');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(calls.some((c) => c.path === 'command-history')).toBe(false);
  });
});
