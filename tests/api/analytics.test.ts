import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertsSummaryResultSchema,
  cpuUsageResultSchema,
  diskUsageResultSchema,
  diskUsedPercent,
  downServersResultSchema,
  memoryUsageResultSchema,
  nodesSummaryResultSchema,
  servicesDownResultSchema,
} from '../../server/contract/analytics';
import type { Role } from '../../server/contract/permissions';
import { backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';
let octet = 0;
const nextIp = () => `10.77.${Math.floor(++octet / 250)}.${(octet % 250) + 1}`;

interface Figures {
  state?: 'up' | 'down' | 'unknown';
  cpu?: number | null;
  memory?: number | null;
  disk?: number | null;
  os?: 'linux' | 'windows';
  configured?: boolean;
  status?: 'active' | 'suspended';
  maintenance?: boolean;
  downSinceS?: number;
}

/**
 * SPEC §7 Analytics against known states: servers registered through the API, their figures
 * written on the rows as monitoring writes them (both modes write the same columns), services
 * and alerts as rows. Every figure below is worked out by hand from that seed.
 */
describe.each(await backends())('analytics API on $name', (backend) => {
  let t: TestApp;
  const cookies = new Map<Who, string | undefined>();
  let admin: string;
  const ids: Record<string, string> = {};

  const server = async (hostname: string, f: Figures) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress: nextIp(), operating_system: f.os ?? 'linux' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.result._id as string;
    ids[hostname] = id;
    await t.database.query(
      `update servers set state = $2, cpu_usage = $3, memory_usage = $4, disk_usage = $5, is_agent_configured = $6, status = $7, suppress_alarm = $8,
         state_changed_at = now() - make_interval(secs => $9), last_scraped_at = now() where id = $1`,
      [id, f.state ?? 'up', f.cpu ?? null, f.memory ?? null, f.disk ?? null, f.configured ?? true, f.status ?? 'active', f.maintenance ? 'yes' : 'no', f.downSinceS ?? 0],
    );
    return id;
  };
  const service = (serverId: string, name: string, status: string) =>
    t.database.query(`insert into services (server_id, service_name, status) values ($1, $2, $3)`, [serverId, name, status]);
  const alert = (serverId: string, status: 'firing' | 'resolved' | 'snoozed', n = 1) =>
    t.database.query(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject)
       select $1, 'h', '10.0.0.1', 'high_cpu_usage', 'resouce_alert', 'warning', $2, 'seed-' || g from generate_series(1, $3::int) g`,
      [serverId, status, n],
    );
  const get = async (path: string, cookie: string | undefined = admin) => t.call('GET', `/api/analytics/${path}`, { cookie });

  beforeAll(async () => {
    t = await startTestApp(backend);
    for (const who of ['admin', 'sysadmin', 'user', 'anonymous'] as Who[]) {
      if (who === 'anonymous') cookies.set(who, undefined);
      else {
        const u = await t.addUser({ role: who, username: `${who}-analytics` });
        cookies.set(who, await t.signIn(u.email, u.password));
      }
    }
    admin = cookies.get('admin')!;
    // The fleet every test reads. Figures are percent used (docs/metrics.md).
    await server('hot-lin', { cpu: 97.25, memory: 91.4, disk: 96.4 });
    await server('warm-lin', { cpu: 85, memory: 75.6, disk: 62 });
    await server('cool-lin', { cpu: 12, memory: 30, disk: 20 });
    await server('edge-lin', { cpu: 90, memory: 90, disk: 90 }); // exactly 90: not "above 90"
    await server('hot-win', { os: 'windows', cpu: 93, memory: 95.5, disk: 91.2 });
    await server('null-lin', { cpu: null, memory: null, disk: null });
    await server('maint-lin', { cpu: 99, memory: 99, disk: 99, maintenance: true });
    // Do not count: down (stale figures), suspended, agent not configured, never scraped.
    await server('down-old', { state: 'down', cpu: 99, memory: 99, disk: 99, downSinceS: 7200 });
    await server('down-new', { state: 'down', downSinceS: 65 });
    await server('susp-lin', { status: 'suspended', cpu: 99, memory: 99, disk: 99 });
    await server('susp-down', { status: 'suspended', state: 'down', downSinceS: 10 });
    await server('raw-lin', { configured: false, cpu: 99, memory: 99, disk: 99 });
    await server('new-lin', { state: 'unknown' });
    await service(ids['hot-lin']!, 'nginx.service', 'down');
    await service(ids['hot-lin']!, 'cron.service', 'up');
    await service(ids['hot-win']!, 'w3svc', 'down');
    await service(ids['hot-win']!, 'spooler', 'stopped');
    await service(ids['cool-lin']!, 'Apache2.service', 'down');
    await service(ids['down-old']!, 'redis.service', 'down'); // its server is down: stale
    await service(ids['susp-lin']!, 'ssh.service', 'down');
    await alert(ids['hot-lin']!, 'firing', 3);
    await alert(ids['hot-win']!, 'resolved', 5);
    await alert(ids['cool-lin']!, 'snoozed', 2);
  });
  afterAll(async () => t.close());

  it('lists servers above the CPU threshold, highest first, with mode "busy"', async () => {
    const res = await get('top-cpu-usage-servers?percentage=90');
    expect(res.status).toBe(200);
    const body = cpuUsageResultSchema.parse(res.body);
    expect(body.result.data.map((r) => [r.hostname, r.value, r.mode])).toEqual([
      ['maint-lin', 99, 'busy'],
      ['hot-lin', 97.25, 'busy'],
      ['hot-win', 93, 'busy'],
    ]);
    expect(body.result.count).toBe(3);
    expect(body.result.data[1]).toMatchObject({ serverId: ids['hot-lin'], ipaddress: expect.stringMatching(/^10\.77\./) });
    const at80 = cpuUsageResultSchema.parse((await get('top-cpu-usage-servers?percentage=80')).body);
    expect(at80.result.data.map((r) => r.hostname)).toEqual(['maint-lin', 'hot-lin', 'hot-win', 'edge-lin', 'warm-lin']);
  });

  it('lists memory above 90/80/70/60 with a null mountpoint; default threshold is 90', async () => {
    const at70 = memoryUsageResultSchema.parse((await get('top-memory-usage-servers?percentage=70')).body);
    expect(at70.result.data.map((r) => [r.hostname, r.value, r.mountpoint])).toEqual([
      ['maint-lin', 99, null],
      ['hot-win', 95.5, null],
      ['hot-lin', 91.4, null],
      ['edge-lin', 90, null],
      ['warm-lin', 75.6, null],
    ]);
    const dflt = memoryUsageResultSchema.parse((await get('top-memory-usage-servers')).body);
    expect(dflt.result.data.map((r) => r.hostname)).toEqual(['maint-lin', 'hot-win', 'hot-lin']);
  });

  it('gives disk value as percent available for Linux and percent used for Windows, so the display rule yields percent used', async () => {
    const res = diskUsageResultSchema.parse((await get('top-disk-usage-servers?percentage=90')).body);
    expect(res.result.data.map((r) => [r.hostname, r.os, r.mountpoint, Number(r.value.toFixed(6))])).toEqual([
      ['maint-lin', 'linux', '/', 1],
      ['hot-lin', 'linux', '/', 3.6],
      ['hot-win', 'windows', null, 91.2],
    ]);
    // SPEC §2: Windows shows the value, others 100 minus it, rounded: the Servers list's figure.
    expect(res.result.data.map((r) => Math.round(diskUsedPercent(r)))).toEqual([99, 96, 91]);
    const at60 = diskUsageResultSchema.parse((await get('top-disk-usage-servers?percentage=60')).body);
    expect(at60.result.data.map((r) => r.hostname)).toEqual(['maint-lin', 'hot-lin', 'hot-win', 'edge-lin', 'warm-lin']);
  });

  it('summarises nodes: active, agent-configured servers; never-scraped ones count in the total only', async () => {
    const res = await get('nodes-summary');
    expect(nodesSummaryResultSchema.parse(res.body).result).toEqual({ total_nodes: 10, total_nodes_up: 7, total_nodes_down: 2 });
  });

  it('summarises alerts: all of them, firing and resolved (snoozed in the total only)', async () => {
    const res = await get('alerts-summary');
    expect(alertsSummaryResultSchema.parse(res.body).result).toEqual({ total_alerts: 10, total_alerts_firing: 3, total_alerts_resolved: 5 });
  });

  it('lists services down on servers that are up, by hostname then service', async () => {
    const res = servicesDownResultSchema.parse((await get('get-services-down')).body);
    expect(res.result.data.map((r) => [r.hostname, r.service])).toEqual([
      ['cool-lin', 'Apache2.service'],
      ['hot-lin', 'nginx.service'],
      ['hot-win', 'w3svc'],
    ]);
  });

  it('lists down servers, newest outage first, with whole seconds of downtime', async () => {
    const res = downServersResultSchema.parse((await get('get-down-servers')).body);
    expect(res.result.data.map((r) => r.hostname)).toEqual(['down-new', 'down-old']);
    const [fresh, old] = res.result.data;
    expect(fresh!.downtime).toBeGreaterThanOrEqual(65);
    expect(fresh!.downtime).toBeLessThan(65 + 60);
    expect(old!.downtime).toBeGreaterThanOrEqual(7200);
    expect(old!.downtime).toBeLessThan(7200 + 60);
    expect(Number.isInteger(old!.downtime)).toBe(true);
  });

  it('follows live changes: a server coming back leaves the down list and joins the up count', async () => {
    await t.database.query(`update servers set state = 'up', state_changed_at = now() where id = $1`, [ids['down-new']]);
    try {
      const down = downServersResultSchema.parse((await get('get-down-servers')).body);
      expect(down.result.data.map((r) => r.hostname)).toEqual(['down-old']);
      expect(nodesSummaryResultSchema.parse((await get('nodes-summary')).body).result).toEqual({ total_nodes: 10, total_nodes_up: 8, total_nodes_down: 1 });
    } finally {
      await t.database.query(`update servers set state = 'down', state_changed_at = now() - interval '65 seconds' where id = $1`, [ids['down-new']]);
    }
  });

  it.each(['abc', '-5', '101', '90.5', '1e2', '', '9999'])('refuses percentage=%j with a 400 naming the field', async (bad) => {
    for (const path of ['top-cpu-usage-servers', 'top-memory-usage-servers', 'top-disk-usage-servers']) {
      const res = await get(`${path}?percentage=${encodeURIComponent(bad)}`);
      expect(res.status, `${path} ${bad}`).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, field: 'percentage' });
    }
  });

  it('refuses unknown query fields and answers 0 and 100 as bounds', async () => {
    const extra = await get('top-cpu-usage-servers?percentage=90&limit=3');
    expect(extra.status).toBe(400);
    expect(extra.body.field).toBe('limit');
    expect(cpuUsageResultSchema.parse((await get('top-cpu-usage-servers?percentage=100')).body).result.count).toBe(0);
    expect(cpuUsageResultSchema.parse((await get('top-cpu-usage-servers?percentage=0')).body).result.count).toBe(6);
  });

  it('is readable by every role and refused without a session', async () => {
    for (const path of ['top-cpu-usage-servers', 'top-memory-usage-servers', 'top-disk-usage-servers', 'nodes-summary', 'alerts-summary', 'get-services-down', 'get-down-servers']) {
      for (const who of ['admin', 'sysadmin', 'user'] as const) expect((await get(path, cookies.get(who))).status, `${who} ${path}`).toBe(200);
      expect((await t.call('GET', `/api/analytics/${path}`)).status, path).toBe(401);
    }
  });
});
