import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CommandContext } from '../../commands/define-command';
import { defineCommand } from '../../commands/define-command';
import { createRegistry } from '../../commands/registry';
import type { Api, RequestOptions } from '../../src/api/client';

/**
 * Issue 11 §2 from the browser's side: a run sends its command, line, source and run id with
 * every API call, and never writes a record itself: History is the server's (issue 25 §3).
 */

interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

/** An API whose writes the "server" records (answers with a record id), unless `recordsWrites` is false. */
function fakeApi(recordsWrites = true) {
  const calls: Call[] = [];
  let n = 0;
  const answer = (method: string) => async (path: string, a?: unknown, b?: RequestOptions) => {
    const options = (method === 'GET' || method === 'DELETE' ? a : b) as RequestOptions | undefined;
    const body = method === 'GET' || method === 'DELETE' ? undefined : a;
    calls.push({ method, path, body, headers: options?.headers ?? {} });
    const recorded = recordsWrites && method !== 'GET';
    options?.onResponse?.({ status: 200, headers: new Headers(recorded ? { 'x-opsdeck-record': `00000000-0000-4000-8000-00000000000${++n}` } : {}) });
    return { result: {} } as never;
  };
  const api = { get: answer('GET'), post: answer('POST'), patch: answer('PATCH'), put: answer('PUT'), delete: answer('DELETE') } as unknown as Api;
  return { api, calls };
}

const context = (api: Api): CommandContext => ({
  api,
  user: { _id: '00000000-0000-4000-8000-000000000001', username: 'ann', email: 'ann@x', role: 'admin' },
  navigate: vi.fn(),
  invalidate: vi.fn(async () => {}),
  confirm: vi.fn(async () => false),
  ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
  session: { signedIn: vi.fn(), signedOut: vi.fn() },
  run: vi.fn(async () => ({})),
});

function registry() {
  const r = createRegistry();
  r.register(
    defineCommand({
      id: 'test.rename',
      title: 'Rename',
      category: 'Test',
      input: z.object({ server: z.string(), name: z.string() }),
      args: [
        { name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true },
        { name: 'name', label: 'Name', kind: 'text' },
      ],
      async run({ server, name }, ctx) {
        await ctx.api.get(`servers/${server}`);
        await ctx.api.patch(`servers/${server}`, { hostname: name });
        return { message: 'ok' };
      },
    }),
  );
  r.register(defineCommand({ id: 'test.view', title: 'View', category: 'Test', input: z.object({ tab: z.string() }), args: [{ name: 'tab', label: 'Tab', kind: 'text' }], run: () => ({}) }));
  r.register(defineCommand({ id: 'test.drop', title: 'Drop', category: 'Test', input: z.object({}), destructive: true, run: () => ({}) }));
  return r;
}

describe('a run in the audit trail', () => {
  it('sends its command, re-runnable line, source and run id on every call, and leaves the record to the server', async () => {
    const { api, calls } = fakeApi();
    const result = await registry().dispatch('test.rename', { server: 'web-01', name: 'web 02' }, { source: 'palette', ctx: context(api) });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET servers/web-01', 'PATCH servers/web-01']);
    for (const c of calls) {
      expect(c.headers).toMatchObject({ 'x-opsdeck-command': 'test.rename', 'x-opsdeck-source': 'palette', 'x-opsdeck-command-line': encodeURIComponent('test.rename --server web-01 --name "web 02"') });
      expect(c.headers['x-opsdeck-run']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(calls[0]!.headers['x-opsdeck-run']).toBe(calls[1]!.headers['x-opsdeck-run']);
    // No browser report: the server's record of the PATCH is the run's record.
    expect(result.records).toEqual(['00000000-0000-4000-8000-000000000001']);
  });

  it('writes no record itself: a run that made no call, or was cancelled before one, leaves nothing in History (issue 25 §3)', async () => {
    const { api, calls } = fakeApi();
    const viewed = await registry().dispatch('test.view', { tab: 'cpu' }, { source: 'hotkey', ctx: context(api) });
    expect(viewed.records).toBeUndefined();
    await expect(registry().dispatch('test.drop', {}, { source: 'ui', ctx: context(api) })).rejects.toMatchObject({ outcome: 'cancelled' });
    await expect(registry().dispatch('test.view', { tab: 5 }, { source: 'cmdline', ctx: context(api) })).rejects.toMatchObject({ outcome: 'refused' });
    expect(calls).toEqual([]);
  });

  it('an undo names the undone record on its calls', async () => {
    const { api, calls } = fakeApi();
    await registry().dispatch('test.rename', { server: 'web-01', name: 'x' }, { source: 'ui', ctx: context(api), undoOf: '00000000-0000-4000-8000-0000000000aa' });
    expect(calls[1]!.headers['x-opsdeck-undo-of']).toBe('00000000-0000-4000-8000-0000000000aa');
  });
});
