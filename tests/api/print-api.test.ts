import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allCommands, createAppRegistry, type CommandId } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { CREATED_ID, curlLines, isReadCall, printApi, type ApiCall } from '../../commands/print-api';
import { SECRET_KEYS } from '../../commands/redact';
import { ApiError, type Api, type HttpMethod, type RequestOptions } from '../../src/api/client';
import { commandExamples } from '../commands/examples';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * "Copy as curl" and `--print-api` (issue 13): the calls printed for a command are the calls the
 * command makes, and the printed curl, run for real with a personal API token, does what the
 * command does, recorded in the history under the token's owner and the command.
 */
const run = promisify(execFile);
const [pglite] = await backends();

/** The web app's API client, speaking to a real server with a personal token instead of the cookie. */
/** `created` collects the ids the server gave what a command made (a dry run prints CREATED_ID for them). */
function tokenApi(origin: string, token: string, seen?: ApiCall[], created?: Set<string>): Api {
  const request = async <T,>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> => {
    const url = new URL(`/api/${path.replace(/^\//, '')}`, origin);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) for (const item of [v].flat()) url.searchParams.append(k, String(item));
    if (seen && !isReadCall(method, url.pathname) && !url.pathname.endsWith('/command-history')) seen.push({ method, path: url.pathname + url.search, ...(options.body !== undefined ? { body: options.body } : {}) });
    const res = await fetch(url, { method, headers: { ...options.headers, authorization: `Bearer ${token}`, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) }, body: options.body !== undefined ? JSON.stringify(options.body) : undefined });
    options.onResponse?.({ status: res.status, headers: res.headers });
    const text = await res.text();
    const data = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new ApiError(res.status, data ?? {});
    const madeId = method === 'POST' && !isReadCall(method, url.pathname) ? (data as { result?: { _id?: unknown } } | undefined)?.result?._id : undefined;
    // An action on a thing answers with that thing (its id in the path): nothing was made.
    if (created && typeof madeId === 'string' && !url.pathname.includes(madeId)) created.add(madeId);
    return data as T;
  };
  return {
    get: (p, o) => request('GET', p, o),
    post: (p, b, o) => request('POST', p, { ...o, body: b }),
    patch: (p, b, o) => request('PATCH', p, { ...o, body: b }),
    put: (p, b, o) => request('PUT', p, { ...o, body: b }),
    delete: (p, o) => request('DELETE', p, o),
  };
}

function context(api: Api, user: CommandContext['user']): CommandContext {
  const store = new Map<string, string>();
  return {
    api,
    user,
    navigate: vi.fn(),
    invalidate: async () => {},
    confirm: async () => true,
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: async () => ({}),
    storage: { get: (k) => store.get(k) ?? null, set: (k, v) => void store.set(k, v) },
  };
}

/** Calls compared without what differs between two runs by nature: timestamps and secrets. */
const comparable = (calls: ApiCall[]) =>
  JSON.parse(
    JSON.stringify(calls.map((c) => ({ ...c, body: c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? Object.fromEntries(Object.entries(c.body).filter(([k]) => !SECRET_KEYS.test(k))) : c.body, leftOut: undefined }))).replace(
      /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g,
      'T',
    ),
  );

describe('Copy as curl', () => {
  let t: TestApp;
  let origin: string;
  let token: string;
  let admin: NonNullable<CommandContext['user']>;
  let serverId: string;
  const registry = createAppRegistry();
  const alertOn = async (service: string) =>
    (
      await t.database.query<{ id: string }>(
        `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, summary, description, service)
         values ($1, $2, 'curl-web', '10.94.0.1', 'service_down', 'service_down_alert', 'critical', $3, 'd', $2) returning id`,
        [serverId, service, `${service} is down`],
      )
    )[0]!.id;
  const shell = async (text: string) => (await run('sh', ['-c', text], { env: { ...process.env, OPSDECK_TOKEN: token } })).stdout;
  const get = async (path: string) => (await t.call('GET', path, { headers: { authorization: `Bearer ${token}` } })).body.result;

  beforeAll(async () => {
    t = await startTestApp(pglite!);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    origin = `http://127.0.0.1:${address.port}`;
    const a = await t.addUser({ role: 'admin', username: 'curl-admin' });
    const cookie = await t.signIn(a.email, a.password);
    token = (await t.call('POST', '/api/auth/tokens', { cookie, body: { name: 'curl' } })).body.result.token;
    admin = { _id: a._id, username: 'curl-admin', email: a.email, role: 'admin' };
    serverId = (await t.call('POST', '/api/servers', { cookie, body: { hostname: 'curl-web', ipaddress: '10.94.0.1', operating_system: 'linux' } })).body.result._id;
  }, 120_000);
  afterAll(async () => t.close());

  it('alert.resolve: the printed curl resolves the alert as the command does, recorded as the person with the token under the command', async () => {
    const [byCommand, byCurl] = [await alertOn('nginx.service'), await alertOn('ssh.service')];
    const api = tokenApi(origin, token);
    await registry.run('alert.resolve', { alert: byCommand, note: 'Restarted it' }, { source: 'cmdline', ctx: context(api, admin) });

    const printed = await printApi(registry, 'alert.resolve', { alert: byCurl, note: 'Restarted it' }, context(api, admin));
    expect(printed.calls).toEqual([{ method: 'PATCH', path: `/api/alerts/${byCurl}`, body: { status: 'resolved', log: 'Restarted it' } }]);
    // Nothing happened while printing.
    expect((await get(`/api/alerts/${byCurl}`)).status).toBe('firing');
    const curl = curlLines(printed, origin);
    expect(curl).toContain(`-H "Authorization: Bearer $OPSDECK_TOKEN"`);
    expect(curl).not.toContain(token);
    const answer = JSON.parse(await shell(curl));
    expect(answer.result.status).toBe('resolved');

    const [a, b] = [await get(`/api/alerts/${byCommand}`), await get(`/api/alerts/${byCurl}`)];
    expect(b.status).toBe(a.status);
    expect(b.timeline.at(-1)).toMatchObject({ type: 'resolved', note: 'Restarted it', by: a.timeline.at(-1).by });
    expect(a.timeline.at(-1)).toMatchObject({ type: 'resolved', note: 'Restarted it' });
    const history = (await t.call('POST', '/api/command-history/all', { headers: { authorization: `Bearer ${token}` }, body: { pageSize: 5, sort: { by: 'createdAt', direction: 'desc' } } })).body.result.data;
    expect(history[0]).toMatchObject({ command: 'alert.resolve', commandLine: `alert.resolve --alert ${byCurl} --note "Restarted it"`, source: 'api', outcome: 'ok', actorKind: 'token', actorLabel: 'curl', username: 'curl-admin', userId: admin._id });
    expect(history[0].targets[0]).toMatchObject({ kind: 'alert', id: byCurl });
  });

  it('group.create and server.edit by name: names are resolved to ids in the printed calls, and the curl does what the command does', async () => {
    const api = tokenApi(origin, token);
    const ctx = context(api, admin);
    await registry.run('group.create', { name: 'Ops by command', emails: 'ops@example.com, dba@example.com' }, { source: 'cmdline', ctx });
    const printed = await printApi(registry, 'group.create', { name: 'Ops by curl', emails: 'ops@example.com, dba@example.com' }, ctx);
    await shell(curlLines(printed, origin));
    const groups = (await t.call('POST', '/api/notification-groups/all', { headers: { authorization: `Bearer ${token}` }, body: { pageSize: 10, sort: { by: 'name', direction: 'asc' } } })).body.result.data;
    const [byCommand, byCurl] = [groups.find((g: any) => g.name === 'Ops by command'), groups.find((g: any) => g.name === 'Ops by curl')];
    expect(byCurl).toBeDefined();
    expect(byCurl.emailList).toEqual(byCommand.emailList);

    const edit = await printApi(registry, 'server.edit', { server: 'curl-web', ipaddress: '10.94.0.9' }, ctx);
    expect(edit.calls).toEqual([expect.objectContaining({ method: 'PATCH', path: `/api/servers/${serverId}` })]);
    await shell(curlLines(edit, origin));
    expect((await get(`/api/servers/${serverId}`)).ipaddress).toBe('10.94.0.9');
  });

  it('leaves secrets out and says so; a view-only command makes no call; a name that matches nothing is refused as the run would be', async () => {
    const ctx = context(tokenApi(origin, token), admin);
    const create = await printApi(registry, 'user.create', { username: 'zed', email: 'zed@example.com', phonenumber: '+1 555 0199', password: 'correct horse', role: 'user' }, ctx);
    expect(create.calls).toEqual([{ method: 'POST', path: '/api/users', body: { username: 'zed', email: 'zed@example.com', phonenumber: '+1 555 0199', role: 'user', status: 'active' }, leftOut: ['password'] }]);
    const curl = curlLines(create, origin);
    expect(curl).not.toContain('correct horse');
    expect(curl).toMatch(/^# left out, add to the body: password\n/);
    expect((await printApi(registry, 'server.show', { server: 'curl-web' }, ctx)).calls).toEqual([]);
    await expect(printApi(registry, 'server.delete', { server: 'no-such-host', acknowledge: true }, ctx)).rejects.toThrow(/no-such-host/);
    await expect(printApi(registry, 'user.create', { username: 'x', email: 'x@example.com', phonenumber: '1', password: 'pw-1234567', role: 'admin' }, context(tokenApi(origin, token), { ...admin, role: 'user' }))).rejects.toThrow(/Only Admin/);
  });

  it('every command: what it prints is what it then does, call for call, and printing changes nothing', async () => {
    // The examples' names and ids, made real; each command is printed, then run, in turn.
    const cookie = await t.signIn((await t.addUser({ role: 'admin', username: 'curl-seed' })).email, 'pw-123456');
    const seed = async (path: string, body: unknown) => {
      const res = await t.call('POST', path, { cookie, body });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body.result;
    };
    const web = await seed('/api/servers', { hostname: 'web-01', ipaddress: '10.94.1.1', operating_system: 'linux' });
    await t.database.query(`update servers set id = '00000000-0000-4000-8000-0000000000a1' where id = $1`, [web._id]);
    const ops = await seed('/api/notification-groups', { name: 'Ops', emailList: ['ops@example.com'] });
    await t.database.query(`update notification_groups set id = '00000000-0000-4000-8000-0000000000c1' where id = $1`, [ops._id]);
    const ann = await seed('/api/users', { username: 'ann', email: 'ann@example.com', phonenumber: '+1 555 0100', password: 'correct horse', role: 'sysadmin' });
    await t.database.query(`update users set id = '00000000-0000-4000-8000-0000000000d1' where id = $1`, [ann._id]);
    await t.database.query(
      `insert into alerts (id, server_id, subject, hostname, instance, alertname, type, severity, summary, description, service)
       select '00000000-0000-4000-8000-0000000000b1', id, 'ssh.service', 'web-01', '10.94.1.1', 'service_down', 'service_down_alert', 'critical', 'ssh.service is down', 'd', 'ssh.service' from servers where hostname = 'web-01'`,
    );
    await seed('/api/checks', { name: 'Shop front', kind: 'http', target: 'http://127.0.0.1:9/health' }).catch(() => undefined);

    const skip = new Set<string>(['agent.configure', 'session.logout', 'session.signin']);
    const compared: string[] = [];
    const mismatched: string[] = [];
    for (const def of allCommands) {
      if (skip.has(def.id)) continue;
      const input = commandExamples[def.id as CommandId];
      const before = await t.count('command_history');
      const printed = await printApi(registry, def.id, input, context(tokenApi(origin, token), admin)).catch(() => null);
      expect(await t.count('command_history'), `printing ${def.id} wrote a record`).toBe(before);
      const sent: ApiCall[] = [];
      const created = new Set<string>();
      const ran = await registry.dispatch(def.id, input, { source: 'api', ctx: context(tokenApi(origin, token, sent, created), admin) }).then(
        () => true,
        () => false,
      );
      if (!ran || !printed) continue;
      if (!sent.length && !printed.calls.length) continue;
      compared.push(def.id);
      // A later call naming what an earlier one made: printed as CREATED_ID, sent with the id it got.
      let sentText = JSON.stringify(comparable(sent));
      for (const id of created) sentText = sentText.replaceAll(id, CREATED_ID);
      if (JSON.stringify(comparable(printed.calls)) !== sentText) mismatched.push(`${def.id}: printed ${JSON.stringify(printed.calls)} but sent ${JSON.stringify(sent)}`);
    }
    expect(mismatched).toEqual([]);
    // Most commands that change something ran against the seeded names (the rest need a state the examples do not make).
    expect(compared.length, compared.join(" ")).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
