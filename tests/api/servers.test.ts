import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../server/contract/permissions';
import { asDeclared, backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';
const everyone: Who[] = ['admin', 'sysadmin', 'user', 'anonymous'];
const readAll = (ok: number) => ({ admin: ok, sysadmin: ok, user: ok, anonymous: 401 });
const writers = (ok: number) => ({ admin: ok, sysadmin: ok, user: 403, anonymous: 401 });

let octet = 0;
const nextIp = () => `10.9.${Math.floor(++octet / 250)}.${(octet % 250) + 1}`;

describe.each(await backends())('servers API on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  const cookies = new Map<Who, string | undefined>();

  const create = async (body: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `host-${++octet}`, ipaddress: nextIp(), operating_system: 'linux', ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; hostname: string; ipaddress: string; agentPort: number; [k: string]: unknown };
  };
  const snapshot = async () => ({
    servers: await t.database.query('select * from servers order by id'),
    services: await t.count('services'),
  });

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

  it('creates a server with SPEC fields and defaults, and reads it back', async () => {
    const s = await create({ hostname: 'web-01', ipaddress: '10.0.0.5', operating_system: 'windows' });
    expect(s).toMatchObject({
      hostname: 'web-01',
      ipaddress: '10.0.0.5',
      operating_system: 'windows',
      agentPort: 9100,
      state: 'unknown',
      suppressAlarm: 'no',
      isAgentConfigured: false,
      isAgentInstalled: false,
      status: 'active',
      cpuUsage: null,
      lastScrapedAt: null,
    });
    const one = await t.call('GET', `/api/servers/${s._id}`, { cookie: admin });
    expect(one.body.result).toEqual(s);
    const usage = await t.call('GET', `/api/servers/metrics/usage/${s._id}`, { cookie: admin });
    expect(Object.keys(usage.body.result).sort()).toEqual(
      [
        'state',
        'suppressAlarm',
        'isAgentConfigured',
        'lastScrapedAt',
        'cpuUsage',
        'memoryUsage',
        'diskUsage',
        'networkUsage',
        'swapUsage',
        'uptime',
        'cpuLoad1',
        'cpuLoad5',
        'cpuLoad15',
        'cpuCores',
        'memorySaturation',
        'memoryTotal',
        'swapTotal',
      ].sort(),
    );
    const up = await t.call('GET', `/api/servers/upstatus/${s._id}`, { cookie: admin });
    expect(up.body.result).toMatchObject({ _id: s._id, state: 'unknown' });
  });

  it('lists servers/metrics newest first with hostname contains, and the selector query', async () => {
    const a = await create({ hostname: 'list-alpha-01', isAgentConfigured: true });
    const b = await create({ hostname: 'list-beta-01' });
    const c = await create({ hostname: 'LIST-ALPHA-02', isAgentConfigured: true });
    await t.call('PATCH', `/api/servers/${c._id}`, { cookie: admin, body: { status: 'suspended' } });
    const list = await t.call('POST', '/api/servers/metrics/all', { cookie: admin, body: { pageNumber: 1, pageSize: 25, filter: { hostname: { contains: 'list-' } } } });
    expect(list.status).toBe(200);
    expect(list.body.result.count).toBe(3);
    expect(list.body.result.data.map((s: { hostname: string }) => s.hostname)).toEqual(['LIST-ALPHA-02', 'list-beta-01', 'list-alpha-01']);
    const selector = await t.call('POST', '/api/servers/all', {
      cookie: admin,
      body: { pageNumber: 1, pageSize: 100, filter: { hostname: { contains: 'alpha' }, isAgentConfigured: { eq: true }, status: { eq: 'active' } } },
    });
    expect(selector.body.result.data.map((s: { _id: string }) => s._id)).toEqual([a._id]);
    expect(b).toBeTruthy();
  });

  it('toggles maintenance and refuses a second registration of the same exporter', async () => {
    const s = await create();
    const on = await t.call('PATCH', `/api/servers/${s._id}`, { cookie: admin, body: { suppressAlarm: 'yes' } });
    expect(on.body.result.suppressAlarm).toBe('yes');
    const dup = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'dup', ipaddress: s.ipaddress, operating_system: 'linux' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ field: 'ipaddress', message: `A server with address ${s.ipaddress}:9100 is already registered` });
    const otherPort = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'dup', ipaddress: s.ipaddress, operating_system: 'linux', agentPort: 9182 } });
    expect(otherPort.status).toBe(201);
    const moveOnto = await t.call('PATCH', `/api/servers/${otherPort.body.result._id}`, { cookie: admin, body: { agentPort: 9100 } });
    expect(moveOnto.status).toBe(409);
  });

  it('deleting a server removes its services and metric samples', async () => {
    const s = await create({ isAgentConfigured: true });
    await t.app.monitoring.writer.up(s._id, Date.now(), { cpuUsage: 5 } as never, [{ name: 'ssh.service', status: 'up' }], { cpu_busy: 5 });
    await t.app.monitoring.store.flush();
    expect(await t.count('services')).toBeGreaterThan(0);
    const before = await t.database.query('select count(*)::int as n from metric_samples where server_id = $1', [s._id]);
    expect(before[0]).toEqual({ n: 1 });
    const del = await t.call('DELETE', `/api/servers/${s._id}`, { cookie: admin });
    expect(del.status).toBe(200);
    expect(await t.database.query('select 1 from metric_samples where server_id = $1', [s._id])).toEqual([]);
    expect(await t.database.query('select 1 from services where server_id = $1', [s._id])).toEqual([]);
    expect((await t.call('GET', `/api/servers/${s._id}`, { cookie: admin })).status).toBe(404);
  });

  it('lists service records with SPEC filters and the server fields', async () => {
    const s = await create({ hostname: 'svc-host', isAgentConfigured: true });
    await t.app.monitoring.writer.up(s._id, Date.now(), {} as never, [
      { name: 'nginx.service', status: 'up' },
      { name: 'postgresql.service', status: 'down' },
      { name: 'cron.service', status: 'activating' },
    ]);
    const all = await t.call('POST', '/api/prometheus/get-services/all', { cookie: admin, body: { pageNumber: 1, pageSize: 25, filter: { serverId: s._id } } });
    expect(all.status).toBe(200);
    expect(all.body.result.count).toBe(3);
    expect(all.body.result.data[0]).toMatchObject({ serverId: s._id, server: { hostname: 'svc-host', ipaddress: s.ipaddress } });
    const down = await t.call('POST', '/api/prometheus/get-services/all', { cookie: admin, body: { filter: { serverId: s._id, status: 'down' } } });
    expect(down.body.result.data.map((r: { service_name: string }) => r.service_name)).toEqual(['postgresql.service']);
    const named = await t.call('POST', '/api/prometheus/get-services/all', { cookie: admin, body: { filter: { serverId: s._id, name: { contains: 'NGINX' } } } });
    expect(named.body.result.data.map((r: { service_name: string }) => r.service_name)).toEqual(['nginx.service']);
    // A later scrape that no longer reports a unit removes it; a changed status is updated.
    await t.app.monitoring.writer.up(s._id, Date.now(), {} as never, [
      { name: 'nginx.service', status: 'down' },
      { name: 'postgresql.service', status: 'down' },
    ]);
    const after = await t.call('POST', '/api/prometheus/get-services/all', { cookie: admin, body: { filter: { serverId: s._id }, sort: { by: 'name', direction: 'asc' } } });
    expect(after.body.result.data.map((r: { service_name: string; status: string }) => `${r.service_name}:${r.status}`)).toEqual(['nginx.service:down', 'postgresql.service:down']);
  });

  it('role matrix over every servers call', async () => {
    const calls: { name: string; call: (id: string, n: number) => { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: unknown }; expect: Record<Who, number> }[] = [
      { name: 'list metrics', call: () => ({ method: 'POST', url: '/api/servers/metrics/all', body: {} }), expect: readAll(200) },
      { name: 'list servers', call: () => ({ method: 'POST', url: '/api/servers/all', body: {} }), expect: readAll(200) },
      { name: 'one', call: (id) => ({ method: 'GET', url: `/api/servers/${id}` }), expect: readAll(200) },
      { name: 'usage', call: (id) => ({ method: 'GET', url: `/api/servers/metrics/usage/${id}` }), expect: readAll(200) },
      { name: 'upstatus', call: (id) => ({ method: 'GET', url: `/api/servers/upstatus/${id}` }), expect: readAll(200) },
      { name: 'services', call: () => ({ method: 'POST', url: '/api/prometheus/get-services/all', body: {} }), expect: readAll(200) },
      { name: 'monitoring config', call: () => ({ method: 'GET', url: '/api/monitoring/config' }), expect: readAll(200) },
      { name: 'create', call: (_id, n) => ({ method: 'POST', url: '/api/servers', body: { hostname: `m${n}`, ipaddress: nextIp(), operating_system: 'linux' } }), expect: writers(201) },
      { name: 'maintenance', call: (id) => ({ method: 'PATCH', url: `/api/servers/${id}`, body: { suppressAlarm: 'yes' } }), expect: writers(200) },
      { name: 'delete', call: (id) => ({ method: 'DELETE', url: `/api/servers/${id}` }), expect: writers(200) },
    ];
    let n = 0;
    for (const c of calls) {
      for (const who of everyone) {
        const victim = await create();
        const { method, url, body } = c.call(victim._id, ++n);
        const res = await t.call(method, url, { cookie: cookies.get(who), body });
        expect(res.status, `${c.name} as ${who}: ${JSON.stringify(res.body)}`).toBe(c.expect[who]);
      }
    }
  });

  it('bad input is a 4xx naming the problem and changes nothing', async () => {
    const s = await create();
    const before = await snapshot();
    const bad: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: unknown; status: number; message: RegExp }[] = [
      { method: 'POST', url: '/api/servers', body: {}, status: 400, message: /hostname/ },
      { method: 'POST', url: '/api/servers', body: { hostname: 'a', ipaddress: '999.1.1.1', operating_system: 'linux' }, status: 400, message: /IPv4 or IPv6/ },
      { method: 'POST', url: '/api/servers', body: { hostname: 'a', ipaddress: '10.1.1.1', operating_system: 'beos' }, status: 400, message: /operating_system/ },
      { method: 'POST', url: '/api/servers', body: { hostname: 'a b', ipaddress: '10.1.1.1', operating_system: 'linux' }, status: 400, message: /hostname/ },
      { method: 'POST', url: '/api/servers', body: { hostname: 'a', ipaddress: '10.1.1.1', operating_system: 'linux', agentPort: 70000 }, status: 400, message: /agentPort/ },
      { method: 'POST', url: '/api/servers', body: { hostname: 'a', ipaddress: '10.1.1.1', operating_system: 'linux', state: 'up' }, status: 400, message: /Unknown field "state"/ },
      { method: 'PATCH', url: `/api/servers/${s._id}`, body: {}, status: 400, message: /Nothing to update/ },
      { method: 'PATCH', url: `/api/servers/${s._id}`, body: { suppressAlarm: 'maybe' }, status: 400, message: /suppressAlarm/ },
      { method: 'PATCH', url: `/api/servers/${s._id}`, body: { status: 'gone' }, status: 400, message: /status/ },
      { method: 'PATCH', url: `/api/servers/${s._id}`, body: { cpuUsage: 5 }, status: 400, message: /Unknown field/ },
      { method: 'PATCH', url: '/api/servers/not-an-id', body: { suppressAlarm: 'yes' }, status: 404, message: /No servers item/ },
      { method: 'DELETE', url: '/api/servers/00000000-0000-4000-8000-000000000000', status: 404, message: /No servers item/ },
      { method: 'GET', url: '/api/servers/metrics/usage/nope', status: 404, message: /No server with id/ },
      { method: 'GET', url: '/api/servers/upstatus/00000000-0000-4000-8000-000000000000', status: 404, message: /No server with id/ },
      { method: 'POST', url: '/api/servers/metrics/all', body: { filter: { cpu: 5 } }, status: 400, message: /Unknown filter field "cpu"/ },
      { method: 'POST', url: '/api/servers/metrics/all', body: { sort: { by: 'uptime', direction: 'asc' } }, status: 400, message: /Unknown sort field/ },
      { method: 'POST', url: '/api/servers/all', body: { filter: { isAgentConfigured: { eq: 'yes' } } }, status: 400, message: /true or false/ },
      { method: 'POST', url: '/api/prometheus/get-services/all', body: { filter: { serverId: 'x' } }, status: 400, message: /not a valid id/ },
      { method: 'POST', url: '/api/prometheus/get-services/all', body: { filter: { name: { between: [1, 2] } } }, status: 400, message: /not allowed/ },
    ];
    for (const b of bad) {
      const res = await t.call(b.method, b.url, { cookie: admin, body: b.body });
      expect(res.status, `${b.method} ${b.url} ${JSON.stringify(b.body)} → ${JSON.stringify(res.body)}`).toBe(b.status);
      expect(res.body.message).toMatch(b.message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('service discovery for Prometheus is closed without a token', async () => {
    const res = await t.call('GET', '/api/prometheus/targets');
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/PROMETHEUS_SD_TOKEN/);
  });

  it('service discovery lists active agent-configured servers for the right token, with or without the Bearer scheme', async () => {
    const sd = await startTestApp(backend, { monitoring: { ...t.app.monitoring.settings, prometheusSdToken: 'sd-secret' } });
    try {
      const a = await sd.addUser({ role: 'admin' });
      const cookie = (await sd.signIn(a.email, a.password))!;
      const make = (body: Record<string, unknown>) => sd.call('POST', '/api/servers', { cookie, body: { operating_system: 'linux', ...body } });
      const live = (await make({ hostname: 'sd-live', ipaddress: '10.5.0.1', isAgentConfigured: true })).body.result;
      await make({ hostname: 'sd-new', ipaddress: '10.5.0.2' });
      const v6 = (await make({ hostname: 'sd-v6', ipaddress: 'fd00::7', agentPort: 9182, operating_system: 'windows', isAgentConfigured: true })).body.result;
      const gone = (await make({ hostname: 'sd-gone', ipaddress: '10.5.0.3', isAgentConfigured: true })).body.result;
      await sd.call('PATCH', `/api/servers/${gone._id}`, { cookie, body: { status: 'suspended' } });
      const expected = [
        { targets: ['10.5.0.1:9100'], labels: { opsdeck_server_id: live._id, hostname: 'sd-live', os: 'linux' } },
        { targets: ['[fd00::7]:9182'], labels: { opsdeck_server_id: v6._id, hostname: 'sd-v6', os: 'windows' } },
      ];
      for (const authorization of ['Bearer sd-secret', 'bearer sd-secret', 'sd-secret']) {
        const res = await sd.call('GET', '/api/prometheus/targets', { headers: { authorization } });
        expect(res.status, authorization).toBe(200);
        expect(res.body).toEqual(expected);
        expect(asDeclared('prometheus.targets', res.body)).toEqual(res.body);
      }
      for (const authorization of ['Bearer wrong', 'Basic sd-secret', 'Bearer sd-secret extra', '']) {
        expect((await sd.call('GET', '/api/prometheus/targets', { headers: { authorization } })).status, authorization).toBe(401);
      }
    } finally {
      await sd.close();
    }
  });
});
