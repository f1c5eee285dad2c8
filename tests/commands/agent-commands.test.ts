import { createServer, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { CommandError } from '../../commands/registry';
import { decodeInstallToken } from '../../server/contract/agent';
import { ApiError, type Api } from '../../src/api/client';
import { backends, startTestApp, type TestApp } from '../api/harness';

/** The agent commands against the real API over HTTP, signed in as an admin. */
function httpApi(base: string, cookie: string): Api {
  const request = async (method: string, path: string, options: { body?: unknown; query?: Record<string, unknown> } = {}) => {
    const url = new URL(`${base}/api/${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.append(k, String(v));
    const res = await fetch(url, {
      method,
      headers: { cookie, 'x-requested-with': 'opsdeck', ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const text = await res.text();
    const data = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new ApiError(res.status, data ?? {});
    return data;
  };
  return {
    get: (path, o) => request('GET', path, o as never),
    post: (path, body, o) => request('POST', path, { ...(o as object), body }),
    patch: (path, body, o) => request('PATCH', path, { ...(o as object), body }),
    delete: (path, o) => request('DELETE', path, o as never),
  } as Api;
}

async function listen(port = 0): Promise<{ port: number; srv: NetServer }> {
  const srv = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => srv.listen(port, '127.0.0.1', resolve));
  return { port: (srv.address() as { port: number }).port, srv };
}
const close = (srv: NetServer) => new Promise<void>((resolve) => srv.close(() => resolve()));

describe('agent commands', async () => {
  const [pglite] = await backends();
  let t: TestApp;
  let base: string;
  let ctx: CommandContext;
  const progress: string[] = [];
  const confirms: string[] = [];
  const registry = createAppRegistry();
  const run = (id: string, input: unknown) => registry.dispatch(id, input, { source: 'cmdline', ctx });

  const register = async (hostname: string, agentPort: number) => {
    const res = await ctx.api.post<{ result: { _id: string } }>('servers', { hostname, ipaddress: '127.0.0.1', operating_system: 'linux', agentPort });
    return res.result._id;
  };

  beforeAll(async () => {
    t = await startTestApp(pglite!);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const u = await t.addUser({ role: 'admin' });
    const cookie = await t.signIn(u.email, u.password);
    ctx = {
      api: httpApi(base, cookie),
      user: { _id: u._id, username: 'admin', email: u.email, role: 'admin' },
      navigate: () => {},
      invalidate: async () => {},
      confirm: async (r) => {
        confirms.push(r.message);
        return true;
      },
      ui: { colorMode: () => 'light', setColorMode: () => {}, open: () => {} },
      session: { signedIn: () => {}, signedOut: () => {} },
      run: (id, input) => run(id, input),
      progress: (line) => progress.push(line),
    };
  }, 180_000);
  afterAll(async () => t?.close());

  it('agent.configure prints the install command, waits for the report, checks the port and finishes', async () => {
    const { port, srv } = await listen();
    try {
      const id = await register('cli-agent-01', port);
      progress.length = 0;
      const done = run('agent.configure', { server: 'cli-agent-01', wait: 30 });
      // The install command is printed before the wait: take the token from it, as a person would.
      await expect.poll(() => progress.find((l) => l.includes('sb-cli')), { timeout: 10_000 }).toBeTruthy();
      const line = progress.find((l) => l.includes('sb-cli'))!;
      expect(line).toContain(`curl -fsSL '${base}/cli/0.0.2/sb-cli' | sudo sh -s -- install '`);
      const token = decodeInstallToken(/install '([^']+)'/.exec(line)![1]!)!;
      expect(token).toMatchObject({ apiUrl: base, serverId: id });
      const report = await fetch(`${base}/api/cli/agent-installed`, { method: 'POST', headers: { authorization: `Bearer ${token.key}`, 'x-requested-with': 'opsdeck' } });
      expect(report.status).toBe(200);
      const result = await done;
      expect(result.message).toContain('Successfully Configured Monitoring Agent!');
      expect(progress.join('\n')).toMatch(/Step 3: Port is accessible[\s\S]*Step 4: Configuring Monitoring Agent\.\.\./);
      expect((await ctx.api.get<{ result: { isAgentConfigured: boolean } }>(`servers/${id}`)).result.isAgentConfigured).toBe(true);
      // Already done: says so instead of making another key.
      expect((await run('agent.configure', { server: id })).message).toMatch(/already configured/);
    } finally {
      await close(srv);
    }
  });

  it('agent.configure gives up with SPEC’s words when the installer never reports', async () => {
    await register('cli-agent-02', 9100);
    const err = await run('agent.configure', { server: 'cli-agent-02', wait: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as Error).message).toMatch(/^Agent not configured: The agent is not configured yet\. Please try again later\./);
  });

  it('agent.configure without a progress channel (palette) opens the wizard instead of waiting', async () => {
    const id = await register('cli-agent-03', 9101);
    const went: string[] = [];
    const quiet: CommandContext = { ...ctx, progress: undefined, navigate: (to) => went.push(to) };
    const result = await registry.run('agent.configure', { server: 'cli-agent-03' }, { source: 'palette', ctx: quiet });
    expect(result.message).toBe('Opened the agent set-up of **cli-agent-03**.');
    expect(went).toEqual([`/servers/show/${id}?configure=1`]);
  });

  it('agent.check-port answers "Port is accessible" or fails with the server’s message', async () => {
    const { port, srv } = await listen();
    await register('cli-port-open', port);
    expect((await run('agent.check-port', { server: 'cli-port-open' })).message).toMatch(/^Port is accessible/);
    await close(srv);
    const err = await run('agent.check-port', { server: 'cli-port-open' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as Error).message).toContain(`Port ${port} on 127.0.0.1 is not accessible: connection refused`);
  });

  it('agent.create-key, agent.check-install and agent.revoke-key (one by prefix, then the rest)', async () => {
    const id = await register('cli-keys-01', 9200);
    const a = (await run('agent.create-key', { server: 'cli-keys-01' })).data as { prefix: string; key: string };
    const b = (await run('agent.create-key', { server: 'cli-keys-01' })).data as { prefix: string; key: string };
    expect((await run('agent.check-install', { server: id })).data).toEqual({ installed: false });
    confirms.length = 0;
    const one = await run('agent.revoke-key', { server: 'cli-keys-01', key: a.prefix });
    expect(confirms[0]).toMatch(new RegExp(`Revoke key ${a.prefix}… of cli-keys-01\\?`));
    expect(one.message).toContain(a.prefix);
    expect((await fetch(`${base}/api/cli/validate_api_key/${a.key}`)).status).toBe(401);
    expect((await fetch(`${base}/api/cli/validate_api_key/${b.key}`)).status).toBe(200);
    await expect(run('agent.revoke-key', { server: 'cli-keys-01', key: a.prefix })).rejects.toThrow(/No active API key of cli-keys-01 matches/);
    const rest = await run('agent.revoke-key', { server: 'cli-keys-01' });
    expect(rest.message).toContain(b.prefix);
    expect((await fetch(`${base}/api/cli/validate_api_key/${b.key}`)).status).toBe(401);
    await expect(run('agent.revoke-key', { server: 'cli-keys-01' })).rejects.toThrow(/has no active API key/);
  });
});
