import { createHash } from 'node:crypto';
import { createServer, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeInstallToken } from '../../server/contract/agent';
import { DEFAULT_RULES } from '../../server/alerting/defaults';
import type { Role } from '../../server/contract/permissions';
import { asDeclared, backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';
const everyone: Who[] = ['admin', 'sysadmin', 'user', 'anonymous'];

let octet = 0;
const nextIp = () => `10.77.${Math.floor(++octet / 250)}.${(octet % 250) + 1}`;

/** A real TCP listener on loopback (the "agent port"), or the number of one just closed. */
async function listener(): Promise<{ port: number; close: () => Promise<void> }> {
  const srv: NetServer = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  return { port, close: () => new Promise((resolve) => srv.close(() => resolve())) };
}

describe.each(await backends())('agent onboarding API on $name', (backend) => {
  let t: TestApp;
  const cookies = new Map<Who, string | undefined>();
  let admin: string;

  const server = async (body: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `agent-host-${++octet}`, ipaddress: nextIp(), operating_system: 'linux', ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; hostname: string; ipaddress: string; agentPort: number };
  };
  const createKey = async (serverId: string, privilages: string[] = ['CREATE', 'READ', 'UPDATE', 'DELETE'], cookie: string | undefined = admin) =>
    t.call('POST', '/api/cli/create_api_key', { cookie, body: { privilages, serverId } });
  const newKey = async (serverId: string, privilages?: string[]) => {
    const res = await createKey(serverId, privilages);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { key: string; id: string; token: string; apiUrl: string; serverId: string; prefix: string };
  };
  const report = (key: string | undefined, body?: unknown, headers: Record<string, string> = {}) =>
    t.call('POST', '/api/cli/agent-installed', { body, headers: { ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}), ...headers } });
  const getServer = async (id: string) => (await t.call('GET', `/api/servers/${id}`, { cookie: admin })).body.result;

  beforeAll(async () => {
    t = await startTestApp(backend);
    for (const who of everyone) {
      if (who === 'anonymous') cookies.set(who, undefined);
      else {
        const u = await t.addUser({ role: who });
        cookies.set(who, await t.signIn(u.email, u.password));
      }
    }
    admin = cookies.get('admin')!;
  });
  afterAll(async () => t.close());

  it('creates a random key per call, scoped to the server, stored only as its SHA-256, with an install token', async () => {
    const s = await server();
    const a = await newKey(s._id);
    const b = await newKey(s._id);
    expect(a.key).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    expect(b.key).not.toBe(a.key);
    expect(a.prefix).toBe(a.key.slice(0, 10));
    const rows = await t.database.query<{ key_hash: string; privileges: string[]; server_id: string }>('select key_hash, privileges, server_id from api_keys where id = $1', [a.id]);
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(a.key).digest('hex'));
    expect(JSON.stringify(await t.database.query('select * from api_keys'))).not.toContain(a.key);
    expect(rows[0]!.server_id).toBe(s._id);
    expect([...rows[0]!.privileges].sort()).toEqual(['CREATE', 'DELETE', 'READ', 'UPDATE']);
    // SPEC §3: the token is base64 of { apiUrl, serverId, key }; the API url is the address asked.
    expect(JSON.parse(Buffer.from(a.token, 'base64').toString('utf8'))).toEqual({ apiUrl: a.apiUrl, serverId: s._id, key: a.key });
    expect(decodeInstallToken(a.token)).toEqual({ apiUrl: a.apiUrl, serverId: s._id, key: a.key });
    const viaHost = await t.call('POST', '/api/cli/create_api_key', { cookie: admin, body: { privilages: ['READ', 'UPDATE'], serverId: s._id }, headers: { host: 'console.example:8080' } });
    expect(viaHost.body.data.apiUrl).toBe('http://console.example:8080');
  });

  it('lets admin and sysadmin create keys; a user is refused, anonymous is 401', async () => {
    const s = await server();
    const expected = { admin: 201, sysadmin: 201, user: 403, anonymous: 401 };
    for (const who of everyone) {
      const res = await t.call('POST', '/api/cli/create_api_key', { cookie: cookies.get(who), body: { privilages: ['READ', 'UPDATE'], serverId: s._id } });
      expect(res.status, who).toBe(expected[who]);
    }
  });

  it('refuses bad input with a clear 4xx', async () => {
    const s = await server();
    const cases: [unknown, number, RegExp][] = [
      [{ privilages: ['READ'] }, 400, /serverId/],
      [{ privilages: ['READ'], serverId: 'nope' }, 400, /serverId/],
      [{ privilages: [], serverId: s._id }, 400, /privilages/],
      [{ privilages: ['ROOT'], serverId: s._id }, 400, /privilages/],
      [{ serverId: s._id }, 400, /privilages/],
      [{ privilages: ['READ'], serverId: s._id, extra: 1 }, 400, /extra/],
      [{ privilages: ['READ'], serverId: '00000000-0000-4000-8000-000000000000' }, 404, /No server/],
    ];
    const before = await t.count('api_keys');
    for (const [body, status, message] of cases) {
      const res = await t.call('POST', '/api/cli/create_api_key', { cookie: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    expect((await t.call('POST', '/api/cli/create_api_key', { cookie: admin, raw: '{bad' })).status).toBe(400);
    expect(await t.count('api_keys')).toBe(before);
  });

  it('validates a key for its server and refuses wrong, malformed and revoked keys', async () => {
    const s = await server({ agentPort: 9911 });
    const k = await newKey(s._id);
    const ok = await t.call('GET', `/api/cli/validate_api_key/${k.key}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ valid: true, serverId: s._id, hostname: s.hostname, operating_system: 'linux', agentPort: 9911, privilages: ['CREATE', 'READ', 'UPDATE', 'DELETE'] });
    expect(asDeclared('agent.validateKey', ok.body)).toEqual(ok.body);
    const wrong = await t.call('GET', `/api/cli/validate_api_key/sbk_${'x'.repeat(43)}`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toMatch(/not valid/);
    expect((await t.call('GET', '/api/cli/validate_api_key/hello')).status).toBe(401);
    const revoked = await t.call('DELETE', `/api/cli/api_keys/${k.id}`, { cookie: admin });
    expect(revoked.status).toBe(200);
    expect(revoked.body.result.revokedAt).toBeTruthy();
    const after = await t.call('GET', `/api/cli/validate_api_key/${k.key}`);
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/revoked/);
  });

  it('the installer report marks only the key’s server installed, and needs a live key with UPDATE', async () => {
    const s = await server();
    const other = await server();
    const k = await newKey(s._id);
    expect((await report(undefined, {})).status).toBe(401);
    expect((await report(`sbk_${'y'.repeat(43)}`, {})).status).toBe(401);
    expect((await report(k.key, { agentPort: 'x' })).status).toBe(400);
    expect((await report(k.key, { what: 1 })).status).toBe(400);
    expect((await getServer(s._id)).isAgentInstalled).toBe(false);
    const res = await report(k.key, { agentPort: s.agentPort, supervisor: 'process', exporter: '/usr/bin/prometheus-node-exporter' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ serverId: s._id, isAgentInstalled: true, isAgentConfigured: false });
    expect(asDeclared('agent.installed', res.body)).toEqual(res.body);
    expect((await getServer(s._id)).isAgentInstalled).toBe(true);
    expect((await getServer(s._id)).isAgentConfigured).toBe(false);
    expect((await getServer(other._id)).isAgentInstalled).toBe(false);
    // A write without the cross-site header is refused like any other (the installer sends it).
    const bare = await t.app.inject({ method: 'POST', url: '/api/cli/agent-installed', headers: { authorization: `Bearer ${k.key}` } });
    expect(bare.statusCode).toBe(403);
    // x-api-key works too, for clients that cannot set Authorization.
    expect((await t.call('POST', '/api/cli/agent-installed', { body: {}, headers: { 'x-api-key': k.key } })).status).toBe(200);
    const readOnly = await newKey(other._id, ['READ']);
    const refused = await report(readOnly.key, {});
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/UPDATE/);
    expect((await getServer(other._id)).isAgentInstalled).toBe(false);
    const listed = await t.call('GET', `/api/cli/api_keys?serverId=${s._id}`, { cookie: admin });
    expect(listed.body.result.data[0].lastUsedAt).toBeTruthy();
    await t.call('DELETE', `/api/cli/api_keys/${k.id}`, { cookie: admin });
    const afterRevoke = await report(k.key, {});
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.message).toMatch(/revoked/);
  });

  it('lists keys without their secret and revokes them (twice is harmless)', async () => {
    const s = await server();
    const k = await newKey(s._id);
    const listed = await t.call('GET', `/api/cli/api_keys?serverId=${s._id}`, { cookie: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.result.count).toBe(1);
    expect(listed.body.result.data[0]).toMatchObject({ _id: k.id, prefix: k.prefix, revokedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(k.key);
    expect((await t.call('GET', '/api/cli/api_keys', { cookie: admin })).status).toBe(400);
    expect((await t.call('GET', `/api/cli/api_keys?serverId=${s._id}`, { cookie: cookies.get('user') })).status).toBe(403);
    expect((await t.call('DELETE', `/api/cli/api_keys/${k.id}`, { cookie: cookies.get('user') })).status).toBe(403);
    const first = await t.call('DELETE', `/api/cli/api_keys/${k.id}`, { cookie: admin });
    const second = await t.call('DELETE', `/api/cli/api_keys/${k.id}`, { cookie: admin });
    expect(second.status).toBe(200);
    expect(second.body.result.revokedAt).toBe(first.body.result.revokedAt);
    expect((await t.call('DELETE', '/api/cli/api_keys/00000000-0000-4000-8000-000000000000', { cookie: admin })).status).toBe(404);
    expect((await t.call('DELETE', '/api/cli/api_keys/nope', { cookie: admin })).status).toBe(404);
  });

  it('checks the agent port with a real TCP connect: open answers isPortAccessible, closed an error message', async () => {
    const open = await listener();
    const closed = await listener();
    await closed.close();
    try {
      const up = await server({ ipaddress: '127.0.0.1', agentPort: open.port });
      const down = await server({ ipaddress: '127.0.0.1', agentPort: closed.port });
      const ok = await t.call('GET', `/api/servers/check-port-access/${up._id}`, { cookie: admin });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ isPortAccessible: true });
      const no = await t.call('GET', `/api/servers/check-port-access/${down._id}`, { cookie: admin });
      expect(no.status).toBe(422);
      expect(no.body.message).toMatch(new RegExp(`Port ${closed.port} on 127.0.0.1 is not accessible: connection refused`));
      expect(no.body.data.message).toBe(no.body.message);
      expect(no.body.isPortAccessible).toBe(false);
      expect((await t.call('GET', '/api/servers/check-port-access/00000000-0000-4000-8000-000000000000', { cookie: admin })).status).toBe(404);
      expect((await t.call('GET', `/api/servers/check-port-access/${up._id}`, { cookie: cookies.get('user') })).status).toBe(403);
      expect((await t.call('GET', `/api/servers/check-port-access/${up._id}`)).status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it('configures the agent: isAgentConfigured true, default alert rules created, idempotent', async () => {
    const s = await server();
    expect(await t.database.query('select 1 from alert_configs where server_id = $1', [s._id])).toHaveLength(0);
    expect((await t.call('PATCH', `/api/servers/update-agent-configure-status/${s._id}`, { cookie: cookies.get('user') })).status).toBe(403);
    const res = await t.call('PATCH', `/api/servers/update-agent-configure-status/${s._id}`, { cookie: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.isAgentConfigured).toBe(true);
    expect(res.body.result).toMatchObject({ _id: s._id, isAgentConfigured: true });
    expect((await getServer(s._id)).isAgentConfigured).toBe(true);
    const rules = await t.database.query<{ n: number }>('select count(*)::int as n from alert_rules where server_id = $1', [s._id]);
    expect(Number(rules[0]!.n)).toBe(DEFAULT_RULES.length);
    const again = await t.call('PATCH', `/api/servers/update-agent-configure-status/${s._id}`, { cookie: admin });
    expect(again.status).toBe(200);
    const rulesAgain = await t.database.query<{ n: number }>('select count(*)::int as n from alert_rules where server_id = $1', [s._id]);
    expect(Number(rulesAgain[0]!.n)).toBe(DEFAULT_RULES.length);
    expect((await t.call('PATCH', '/api/servers/update-agent-configure-status/00000000-0000-4000-8000-000000000000', { cookie: admin })).status).toBe(404);
    const suspended = await server();
    await t.call('PATCH', `/api/servers/${suspended._id}`, { cookie: admin, body: { status: 'suspended' } });
    expect((await t.call('PATCH', `/api/servers/update-agent-configure-status/${suspended._id}`, { cookie: admin })).status).toBe(409);
    expect((await createKey(suspended._id)).status).toBe(409);
  });

  it('deleting a server takes its keys with it', async () => {
    const s = await server();
    const k = await newKey(s._id);
    expect((await t.call('DELETE', `/api/servers/${s._id}`, { cookie: admin })).status).toBe(200);
    expect(await t.database.query('select 1 from api_keys where id = $1', [k.id])).toHaveLength(0);
    expect((await t.call('GET', `/api/cli/validate_api_key/${k.key}`)).status).toBe(401);
  });

  it('serves the Linux installer and the PowerShell installer, and explains that there is no .exe', async () => {
    const sh = await t.app.inject({ method: 'GET', url: '/cli/0.0.2/sb-cli' });
    expect(sh.statusCode).toBe(200);
    expect(sh.headers['content-type']).toMatch(/^text\/x-shellscript/);
    expect(sh.body.startsWith('#!/bin/sh')).toBe(true);
    expect(sh.body).toContain('prometheus-node-exporter');
    const ps = await t.app.inject({ method: 'GET', url: '/cli/0.0.2/sb-cli.ps1' });
    expect(ps.statusCode).toBe(200);
    expect(ps.body).toContain('windows_exporter');
    const exe = await t.app.inject({ method: 'GET', url: '/cli/0.0.2/sb-cli-amd64.exe' });
    expect(exe.statusCode).toBe(404);
    expect(exe.body).toMatch(/does not ship a Windows executable/);
    expect(exe.body).toContain('/cli/0.0.2/sb-cli.ps1');
    expect((await t.app.inject({ method: 'GET', url: '/cli/0.0.1/sb-cli' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/cli/0.0.2/other' })).statusCode).toBe(404);
  });
});
