import { describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { CommandError } from '../../commands/registry';
import { ServerFieldError } from '../../commands/server/server-fields';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import type { Server } from '../../server/contract/servers';
import { ApiError, type Api } from '../../src/api/client';
import { fakeServer } from './fake-server';

const server = (n: number, hostname: string, ipaddress: string): Server => fakeServer({ _id: `00000000-0000-4000-8000-00000000000${n}`, hostname, ipaddress });
const FLEET = [server(1, 'web-01', '10.0.0.1'), server(2, 'web-02', '10.0.0.2'), server(3, 'db', '10.0.0.30')];

/** A servers API over FLEET that answers like server/routes/resource.ts and records every call. */
function fakeApi(options: { patchError?: ApiError } = {}) {
  const calls: { method: string; path: string; body?: any }[] = [];
  const api = {
    get: vi.fn(async (path: string) => {
      calls.push({ method: 'GET', path });
      const found = FLEET.find((s) => path === `servers/${s._id}`);
      if (found) return { result: found };
      throw new ApiError(404, { message: 'Not found' });
    }),
    post: vi.fn(async (path: string, body?: any) => {
      calls.push({ method: 'POST', path, body });
      // A creation answers the server as made, as the API does.
      if (path === 'servers') return { result: { ...server(4, body.hostname, body.ipaddress), operating_system: body.operating_system } };
      if (path !== 'servers/all') return { result: {} };
      const f = body?.filter ?? {};
      const q = String(body?.search ?? '').toLowerCase();
      const rows = FLEET.filter(
        (s) =>
          (f.hostname?.eq === undefined || s.hostname === f.hostname.eq) &&
          (f.ipaddress?.eq === undefined || s.ipaddress === f.ipaddress.eq) &&
          (!q || s.hostname.includes(q) || s.ipaddress.includes(q)),
      );
      return { result: { data: rows.slice(0, body.pageSize), count: rows.length } };
    }),
    patch: vi.fn(async (path: string, body?: any) => {
      calls.push({ method: 'PATCH', path, body });
      if (options.patchError) throw options.patchError;
      const found = FLEET.find((s) => path === `servers/${s._id}`)!;
      return { result: { ...found, ...body } };
    }),
    delete: vi.fn(async (path: string) => {
      calls.push({ method: 'DELETE', path });
      return { result: { _id: path.split('/')[1] } };
    }),
  } as unknown as Api;
  return { api, calls };
}

function context(api: Api): CommandContext {
  return {
    api,
    user: { _id: 'admin-id', username: 'admin', email: 'admin@x', role: 'admin' },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => true),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(),
  };
}

const run = (id: string, input: unknown, api: Api, ctx = context(api)) => createAppRegistry().dispatch(id, input, { source: 'cmdline', ctx });
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as CommandError);

describe('server arguments resolve by id, hostname or IP, fuzzily', () => {
  it('takes an exact hostname (any case), an exact IP or an id', async () => {
    for (const ref of ['db', 'DB', '10.0.0.30', FLEET[2]!._id]) {
      const { api } = fakeApi();
      const ctx = context(api);
      await run('server.show', { server: ref }, api, ctx);
      expect(ctx.navigate).toHaveBeenCalledWith(`/servers/show/${FLEET[2]!._id}`);
    }
  });

  it('prefers an exact match over other servers containing the text', async () => {
    const { api } = fakeApi();
    const ctx = context(api);
    // "10.0.0.1" is contained in nothing else here, but "web-01" also contains "web-0".
    await run('server.show', { server: '10.0.0.1' }, api, ctx);
    expect(ctx.navigate).toHaveBeenCalledWith(`/servers/show/${FLEET[0]!._id}`);
  });

  it('takes a unique part of a name', async () => {
    const { api } = fakeApi();
    const ctx = context(api);
    await run('server.show', { server: '02' }, api, ctx);
    expect(ctx.navigate).toHaveBeenCalledWith(`/servers/show/${FLEET[1]!._id}`);
  });

  it('lists the candidates when a part matches several, and says when nothing matches', async () => {
    const { api } = fakeApi();
    const err = await failure(run('server.show', { server: 'web' }, api));
    expect(err).toBeInstanceOf(CommandError);
    expect(err!.message).toBe('2 servers match "web": web-01 (10.0.0.1:9100), web-02 (10.0.0.2:9100). Use the full hostname, the IP address or the id.');
    expect((await failure(run('server.show', { server: 'mail' }, api)))!.message).toBe('No server matches "mail"');
  });
});

describe('server.delete', () => {
  it('refuses without the acknowledgement and calls nothing', async () => {
    const { api, calls } = fakeApi();
    const err = await failure(run('server.delete', { server: 'db' }, api));
    expect(err?.outcome).toBe('refused');
    expect(err?.message).toContain('I understand the consequences of deleting this server.');
    expect(calls).toEqual([]);
  });

  it('with --acknowledge deletes by id without a second "Are you sure?"', async () => {
    const { api, calls } = fakeApi();
    const ctx = context(api);
    const parsed = parseCommandLine('server.delete db --acknowledge', (id) => createAppRegistry().get(id));
    expect(parsed.input).toEqual({ server: 'db', acknowledge: true });
    await run(parsed.id, parsed.input, api, ctx);
    expect(ctx.confirm).not.toHaveBeenCalled();
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: `servers/${FLEET[2]!._id}` }]);
    expect(ctx.invalidate).toHaveBeenCalledWith(['servers']);
  });

  it('says which servers a vague name matches before deleting anything', async () => {
    const { api, calls } = fakeApi();
    const err = await failure(run('server.delete', { server: 'web', acknowledge: true }, api));
    expect(err?.message).toMatch(/^2 servers match "web"/);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });
});

describe('server.create and server.edit', () => {
  it('create sends the API field names and the default port', async () => {
    const { api, calls } = fakeApi();
    await run('server.create', { hostname: 'mail', ipaddress: '10.0.0.9', os: 'windows' }, api);
    expect(calls.find((c) => c.path === 'servers')?.body).toEqual({ hostname: 'mail', ipaddress: '10.0.0.9', operating_system: 'windows' });
  });

  it('create refuses an invalid IP before calling the API', async () => {
    const { api, calls } = fakeApi();
    const err = await failure(run('server.create', { hostname: 'mail', ipaddress: 'nope', os: 'linux' }, api));
    expect(err?.message).toBe('Create server: IP Address must be an IPv4 or IPv6 address.');
    expect(calls).toEqual([]);
  });

  it('edit sends only what changed and names the field of a server refusal', async () => {
    const { api, calls } = fakeApi({ patchError: new ApiError(409, { message: 'A server with address 10.0.0.1:9100 is already registered', field: 'ipaddress' }) });
    const err = await failure(run('server.edit', { server: 'db', ipaddress: '10.0.0.1', os: 'linux' }, api));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ ipaddress: '10.0.0.1' });
    expect(err).toBeInstanceOf(ServerFieldError);
    expect((err as ServerFieldError).field).toBe('ipaddress');
  });

  it('edit with no changes given opens the edit form', async () => {
    const { api, calls } = fakeApi();
    const ctx = context(api);
    await run('server.edit', { server: 'db' }, api, ctx);
    expect(ctx.navigate).toHaveBeenCalledWith(`/servers/edit/${FLEET[2]!._id}`);
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('edit with the values the server already has sends nothing', async () => {
    const { api, calls } = fakeApi();
    const result = await run('server.edit', { server: 'db', hostname: 'db', ipaddress: '10.0.0.30' }, api);
    expect(result.message).toBe('**db** already has these settings.');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });
});

describe('server.refresh', () => {
  it('refetches the lists only and stays out of the history', async () => {
    const { api, calls } = fakeApi();
    const ctx = context(api);
    await run('server.refresh', {}, api, ctx);
    expect(ctx.invalidate).toHaveBeenCalledWith(['servers', 'list']);
    expect(calls).toEqual([]);
  });
});
