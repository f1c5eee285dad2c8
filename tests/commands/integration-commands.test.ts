import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { ApiError, type Api } from '../../src/api/client';
import { backends, startTestApp, type TestApp } from '../api/harness';

/** Issue 15: integration.show, integration.rotate-token and integration.remove-token against the real API. */
let t: TestApp;
let cookie: string;

function context(role: 'admin' | 'sysadmin' = 'admin') {
  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => {
    const res = await t.call(method, `/api/${path}`, { cookie, body });
    if (res.status < 200 || res.status > 299) throw new ApiError(res.status, res.body ?? {});
    return res.body;
  };
  const api = { get: (p: string) => send('GET', p), post: (p: string, b?: unknown) => send('POST', p, b), patch: (p: string, b?: unknown) => send('PATCH', p, b), delete: (p: string) => send('DELETE', p) } as unknown as Api;
  const ctx: CommandContext = {
    api,
    user: { _id: '00000000-0000-4000-8000-000000000001', username: role, email: `${role}@x`, role },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => true),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
  };
  return ctx;
}
const registry = createAppRegistry();
const line = async (text: string, role: 'admin' | 'sysadmin' = 'admin') => {
  const { id, input } = parseCommandLine(text, registry.get);
  const ctx = context(role);
  return { result: await registry.dispatch(id, input, { source: 'cmdline', ctx }), ctx };
};
const receive = async (token: string) =>
  (
    await t.call('POST', '/api/integrations/alertmanager', {
      headers: { authorization: `Bearer ${token}` },
      body: { version: '4', alerts: [{ status: 'firing', labels: { alertname: 'CmdTest' }, annotations: {}, startsAt: new Date().toISOString(), fingerprint: 'cmd-fp' }] },
    })
  ).status;

beforeAll(async () => {
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  const admin = await t.addUser({ role: 'admin' });
  cookie = await t.signIn(admin.email, admin.password);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('integration commands', () => {
  it('show opens Notifications › Integrations and says the receiver is off and the push unset', async () => {
    const { result, ctx } = await line('integration.show');
    expect(ctx.navigate).toHaveBeenCalledWith('/notifications/integrations');
    expect(result.message).toBe('Receiver off: create a token with `integration.rotate-token` (or set ALERTMANAGER_RECEIVER_TOKEN).\n\nPush off: set ALERTMANAGER_URL to post Opsdeck’s alerts to Alertmanager.');
  });

  it('rotate-token asks, shows the token once and replaces the previous one; remove-token turns the receiver off; only admins may', async () => {
    const first = await line('integration.rotate-token');
    expect(first.ctx.confirm).toHaveBeenCalledTimes(1);
    const token1 = (first.result.data as { token: string }).token;
    expect(first.result.message).toContain(`\`${token1}\``);
    expect(first.result.message).toContain('Copy it now: it is not shown again.');
    expect(await receive(token1)).toBe(200);
    const shown = await line('integration.show');
    expect(shown.result.message).toMatch(new RegExp(`^Receiver on at \`/api/integrations/alertmanager\`: a token \\(\`${token1.slice(0, 8)}…\`, created by `));

    const token2 = ((await line('integration.rotate-token')).result.data as { token: string }).token;
    expect(token2).not.toBe(token1);
    expect(await receive(token1)).toBe(401);
    expect(await receive(token2)).toBe(200);

    await expect(line('integration.rotate-token', 'sysadmin')).rejects.toThrow(/admin/i);
    await expect(line('integration.remove-token', 'sysadmin')).rejects.toThrow(/admin/i);
    expect(await receive(token2)).toBe(200);

    expect((await line('integration.remove-token')).result.message).toBe('Removed the Alertmanager receiver token.');
    expect(await receive(token2)).toBe(404);
    await expect(line('integration.remove-token')).rejects.toThrow('There is no receiver token to remove');
  });
});
