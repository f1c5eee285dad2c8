/**
 * Prometheus mode against the built-in collector on the same exporters: Debian's
 * prometheus-node-exporter and one simulated Windows host, scraped directly by one app and by
 * a real Prometheus (which finds them through the other app's /api/prometheus/targets) for
 * the other. Both apps must show the same figures, states and chart lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, type Config } from '../../server/config';
import { defaultFleetSpecs, startDemoFleet, type DemoFleet } from '../../server/demo/fleet';
import { panelIds } from '../../server/monitoring/panels';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { startSmtpSink, type SmtpSink } from '../api/smtp-sink';
import { freePort, haveNodeExporter, havePrometheus, startNodeExporter, startPrometheus, waitFor, type Proc } from './processes';

const INTERVAL_S = 1;
const TOKEN = 'prometheus-test-token';
const [pglite] = (await backends()).filter((b) => b.name === 'pglite');

interface Usage {
  state: string;
  lastScrapedAt: string | null;
  [field: string]: number | string | null;
}

interface Mode {
  t: TestApp;
  admin: string;
  ids: Record<'linux' | 'windows' | 'doomed', string>;
}

function monitoringConfig(extra: Partial<Config['monitoring']> = {}): Partial<Config> {
  const base = testConfig().monitoring;
  return { monitoring: { ...base, enabled: true, scrapeIntervalS: INTERVAL_S, scrapeTimeoutS: 0.9 * INTERVAL_S, ...extra } };
}

async function exporterAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  const res = await fetch(`http://${host}:${port}/metrics`).catch(() => null);
  return res?.ok ?? false;
}

describe.skipIf(!haveNodeExporter || !havePrometheus)('Prometheus mode shows what the built-in collector shows', () => {
  let nodeExporter: Proc;
  let doomedExporter: Proc;
  let fleet: DemoFleet;
  let prometheus: Proc & { url: string };
  let prometheusSdUrl: string;
  let smtp: SmtpSink;
  let builtin: Mode;
  let viaPrometheus: Mode;

  const usage = async (m: Mode, which: keyof Mode['ids']): Promise<Usage> => {
    const res = await m.t.call('GET', `/api/servers/metrics/usage/${m.ids[which]}`, { cookie: m.admin });
    expect(res.status).toBe(200);
    return res.body.result as Usage;
  };
  /** Boot time implied by a reading: uptime counted back from when the exporter was scraped. */
  const bootS = (u: Usage) => Date.parse(u.lastScrapedAt!) / 1000 - (u['uptime'] as number);
  const chart = async (m: Mode, which: keyof Mode['ids'], panel: number) => {
    const to = Date.now();
    const res = await m.t.call('GET', `/api/servers/chart/${m.ids[which]}?panel=${panel}&from=${to - 60_000}&to=${to}&step=1`, { cookie: m.admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result as { timestamps: number[]; series: { label: string; values: (number | null)[] }[] };
  };

  async function setUp(t: TestApp, ports: { linux: number; doomed: number; windows: { ip: string; port: number } }): Promise<Mode> {
    const user = await t.addUser({ role: 'admin' });
    const admin = await t.signIn(user.email, user.password);
    const create = async (hostname: string, ipaddress: string, agentPort: number, os: 'linux' | 'windows') => {
      const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress, operating_system: os, agentPort, isAgentConfigured: true } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.result._id as string;
    };
    return {
      t,
      admin,
      ids: {
        linux: await create('node-exporter', '127.0.0.1', ports.linux, 'linux'),
        doomed: await create('doomed', '127.0.0.1', ports.doomed, 'linux'),
        windows: await create('demo-windows', ports.windows.ip, ports.windows.port, 'windows'),
      },
    };
  }

  beforeAll(async () => {
    const [nePort, doomedPort, promPort] = [await freePort(), await freePort(), await freePort()];
    nodeExporter = startNodeExporter(nePort);
    doomedExporter = startNodeExporter(doomedPort);
    const windowsSpec = defaultFleetSpecs(12).find((s) => s.os === 'windows' && s.profile === 'normal')!;
    fleet = await startDemoFleet({ specs: [windowsSpec], port: 0 });
    const win = fleet.hosts[0]!;
    await waitFor('node_exporter', () => exporterAnswers(nePort), 10_000);
    await waitFor('the second node_exporter', () => exporterAnswers(doomedPort), 10_000);

    const promUrl = `http://127.0.0.1:${promPort}`;
    smtp = await startSmtpSink();
    const base = testConfig();
    const [a, b] = await Promise.all([
      startTestApp(pglite!, monitoringConfig()),
      startTestApp(pglite!, { ...monitoringConfig({ prometheusUrl: promUrl, prometheusSdToken: TOKEN }), delivery: { ...base.delivery, enabled: true, pollIntervalS: 0.2, smtpUrl: smtp.url } }),
    ]);
    // Prometheus asks the app for its targets over HTTP: this one listens on a real port.
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (b.app.server.address() as { port: number }).port;
    prometheusSdUrl = `http://127.0.0.1:${appPort}/api/prometheus/targets`;
    prometheus = startPrometheus({ port: promPort, sdUrl: prometheusSdUrl, token: TOKEN, scrapeIntervalS: INTERVAL_S });

    const ports = { linux: nePort, doomed: doomedPort, windows: { ip: win.ipaddress, port: win.port } };
    [builtin, viaPrometheus] = await Promise.all([setUp(a, ports), setUp(b, ports)]);

    // Rates need two scrapes in both modes; Prometheus first has to discover the targets.
    const ready = async (m: Mode) => {
      for (const which of ['linux', 'windows', 'doomed'] as const) {
        const u = await usage(m, which);
        if (u.state !== 'up' || u['cpuUsage'] === null || u['networkUsage'] === null) return false;
      }
      return true;
    };
    await waitFor('figures in built-in mode', () => ready(builtin), 20_000);
    await waitFor(`figures in Prometheus mode\n${prometheus.output()}`, () => ready(viaPrometheus), 30_000);
    // A chart ends at the last whole second: wait until Prometheus holds two scrapes before it.
    await waitFor('chart points in both modes', async () => (await chart(builtin, 'linux', 77)).series.length > 0 && (await chart(viaPrometheus, 'linux', 77)).series.length > 0, 10_000);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([builtin?.t.close(), viaPrometheus?.t.close()]);
    await Promise.all([prometheus?.stop(), nodeExporter?.stop(), doomedExporter?.stop(), fleet?.stop(), smtp?.close()]);
  });

  it('serves Prometheus the registered servers with their labels', async () => {
    const res = await viaPrometheus.t.app.inject({ method: 'GET', url: '/api/prometheus/targets', headers: { authorization: `Bearer ${TOKEN}` } });
    const groups = res.json() as { targets: string[]; labels: Record<string, string> }[];
    expect(groups.map((g) => g.labels['opsdeck_server_id']).sort()).toEqual(Object.values(viaPrometheus.ids).sort());
    const targets = await (await fetch(`${prometheus.url}/api/v1/targets`)).json();
    expect(targets.data.activeTargets.filter((t: { health: string }) => t.health === 'up')).toHaveLength(3);
  });

  it.each(['linux', 'windows'] as const)('shows the same %s figures in both modes', async (which) => {
    const [a, b] = await Promise.all([usage(builtin, which), usage(viaPrometheus, which)]);
    expect(a.state).toBe('up');
    expect(b.state).toBe('up');
    // Fixed figures: exactly equal.
    for (const field of ['cpuCores', 'memoryTotal', 'swapTotal']) expect(b[field], field).toBe(a[field]);
    // Both count uptime up to the scrape they read, so both imply the same boot time.
    expect(Math.abs(bootS(a) - bootS(b))).toBeLessThan(2);
    expect(b['diskUsage'] as number).toBeCloseTo(a['diskUsage'] as number, 0);
    expect(Math.abs((b['memoryUsage'] as number) - (a['memoryUsage'] as number))).toBeLessThan(10);
    for (const m of [a, b]) {
      expect(m['cpuUsage'] as number).toBeGreaterThanOrEqual(0);
      expect(m['cpuUsage'] as number).toBeLessThanOrEqual(100);
      expect(m['networkUsage'] as number).toBeGreaterThanOrEqual(0);
      expect(m['memorySaturation']).not.toBeNull();
    }
    if (which === 'linux') {
      for (const field of ['cpuLoad1', 'cpuLoad5', 'cpuLoad15']) expect(typeof b[field], field).toBe('number');
      // swapUsage is null exactly when there is no swap, in both modes.
      expect(b['swapUsage'] === null).toBe(a['swapUsage'] === null);
    } else {
      for (const field of ['cpuLoad1', 'cpuLoad5', 'cpuLoad15']) expect(b[field], field).toBeNull();
      expect(b['swapUsage'] as number).toBeCloseTo(a['swapUsage'] as number, 0);
    }
  });

  it('lists the same services in both modes', async () => {
    const list = async (m: Mode) => {
      const rows = await m.t.database.query<{ service_name: string; status: string }>('select service_name, status from services where server_id = $1 order by service_name', [
        m.ids.windows,
      ]);
      return rows.map((r) => `${r.service_name}=${r.status}`);
    };
    const [a, b] = await Promise.all([list(builtin), list(viaPrometheus)]);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  /** Panels whose lines do not move: both modes must draw the same values. */
  const fixed = { linux: [14, 75, 18], windows: [35, 37] };
  const last = (values: (number | null)[]) => values.filter((v) => v !== null).at(-1);

  it.each(['linux', 'windows'] as const)('draws every %s panel with the same lines in both modes', async (which) => {
    for (const panel of panelIds(which)) {
      // Rates need two samples inside the window in both stores; on a loaded machine the newest
      // scrape may not have landed in one of them yet, so give each panel a few seconds to agree.
      let [a, b] = await Promise.all([chart(builtin, which, panel), chart(viaPrometheus, which, panel)]);
      const drawn = (m: typeof a) => m.series.length > 0 && m.series.every((s) => s.values.some((v) => v !== null));
      for (let i = 0; i < 10 && !(drawn(a) && drawn(b) && JSON.stringify(a.series.map((s) => s.label)) === JSON.stringify(b.series.map((s) => s.label))); i++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        [a, b] = await Promise.all([chart(builtin, which, panel), chart(viaPrometheus, which, panel)]);
      }
      expect(b.timestamps, `panel ${panel}`).toEqual(a.timestamps);
      expect(b.series.map((s) => s.label), `panel ${panel}`).toEqual(a.series.map((s) => s.label));
      expect(a.series.length, `panel ${panel}`).toBeGreaterThan(0);
      for (const m of [a, b]) for (const s of m.series) expect(s.values.some((v) => v !== null), `panel ${panel} ${s.label}`).toBe(true);
      if (fixed[which].includes(panel)) expect(last(b.series[0]!.values), `panel ${panel}`).toBe(last(a.series[0]!.values));
    }
  }, 90_000);

  it('marks a server down once its exporter stops', async () => {
    await doomedExporter.stop();
    const down = await waitFor('the stopped exporter to show down', async () => ((await usage(viaPrometheus, 'doomed')).state === 'down' ? true : null), 10_000);
    expect(down).toBe(true);
    expect((await usage(viaPrometheus, 'linux')).state).toBe('up');
  });

  it('says so when Prometheus dies: servers go stale, readiness fails, the meta alert is sent; all of it ends when Prometheus is back', async () => {
    const { t, admin } = viaPrometheus;
    const group = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'oncall', emailEnabled: true, emailList: ['oncall@example.com'] } });
    expect(group.status).toBe(201);
    const ready = () => t.call('GET', '/api/ready');
    const health = async () => (await t.call('GET', '/api/monitoring/health', { cookie: admin })).body.result;
    const metaAlerts = async () => (await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber: 1, pageSize: 25, filter: { type: 'monitoring_alert' } } })).body.result.data;
    await waitFor('readiness before the outage', async () => (await ready()).status === 200, 10_000);
    const before = await usage(viaPrometheus, 'linux');
    const doomedBefore = await waitFor('the stopped exporter to show down', async () => {
      const r = (await t.call('GET', `/api/servers/${viaPrometheus.ids.doomed}`, { cookie: admin })).body.result;
      return r.state === 'down' ? r : null;
    }, 10_000, 100);

    await prometheus.kill();
    const killedAt = Date.now();
    await waitFor('the servers to go stale', async () => (await usage(viaPrometheus, 'linux')).state === 'stale', 15_000, 100);
    const stale = await usage(viaPrometheus, 'linux');
    // Stale once the newest figures are more than two intervals and the timeout old (2.9 s
    // here), well within a minute of the kill.
    expect(Date.now() - Date.parse(stale.lastScrapedAt!)).toBeGreaterThan(2 * INTERVAL_S * 1000);
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    // The last figures stay, dated; the state says they are not current.
    expect(stale['memoryTotal']).toBe(before['memoryTotal']);
    // The server says why (on a loaded machine it may go stale a moment before the failed read
    // is seen: then it takes the backend's cause on the next look).
    const cause = new RegExp(`^Prometheus at ${prometheus.url.replace(/\./g, '\\.')} did not answer`);
    await waitFor('the stale server to name the cause', async () => cause.test((await t.call('GET', `/api/servers/${viaPrometheus.ids.linux}`, { cookie: admin })).body.result.lastError ?? ''), 10_000, 100);
    await waitFor('every server to go stale', async () => (await usage(viaPrometheus, 'doomed')).state === 'stale' && (await usage(viaPrometheus, 'windows')).state === 'stale', 10_000, 100);
    const summary = (await t.call('GET', '/api/analytics/nodes-summary', { cookie: admin })).body.result;
    expect(summary).toMatchObject({ total_nodes: 3, total_nodes_up: 0, total_nodes_down: 0 });

    const blind = await waitFor('the banner to say why', async () => {
      const h = await health();
      return h.status === 'blind' && h.cause?.includes('did not answer') ? h : null;
    }, 10_000, 100);
    expect(blind.cause).toContain(`Prometheus at ${prometheus.url} did not answer`);
    const notReady = await ready();
    expect(notReady.status).toBe(503);
    expect(notReady.body.failing).toEqual(['monitoring']);
    expect(notReady.body.message).toContain('did not answer');

    const [meta] = await waitFor('the meta alert', async () => ((await metaAlerts()).length ? metaAlerts() : null), 10_000, 100);
    expect(meta).toMatchObject({ alertname: 'Monitoring backend unreachable', type: 'monitoring_alert', status: 'firing', severity: 'critical', serverId: null, hostname: 'Opsdeck' });
    const firing = await waitFor('the meta alert email', async () => smtp.mails.find((m) => m.subject.startsWith('[FIRING] Monitoring backend unreachable')), 10_000, 100);
    expect(firing.to).toEqual(['oncall@example.com']);
    // The cause as first seen: normally the failed read; on a loaded machine possibly that every
    // server's samples went old a moment before.
    expect(firing.text).toMatch(/did not answer|No server has fresh figures/);

    // Prometheus comes back (a fresh one on the same address, as after a crash and restart).
    prometheus = startPrometheus({ port: Number(new URL(prometheus.url).port), sdUrl: prometheusSdUrl, token: TOKEN, scrapeIntervalS: INTERVAL_S });
    await waitFor(`figures again\n${prometheus.output()}`, async () => (await usage(viaPrometheus, 'linux')).state === 'up', 40_000, 200);
    await waitFor('the banner to clear', async () => (await health()).status === 'ok', 10_000, 100);
    await waitFor('readiness again', async () => (await ready()).status === 200, 10_000, 100);
    const [resolved] = await metaAlerts();
    expect(resolved).toMatchObject({ _id: meta._id, status: 'resolved' });
    await waitFor('the resolution email', async () => smtp.mails.find((m) => m.subject.startsWith('[RESOLVED] Monitoring backend unreachable')), 10_000, 100);
    expect(smtp.mails.filter((m) => m.subject.includes('Monitoring backend unreachable'))).toHaveLength(2);
    // The down server is down again, and still down since it was down before the outage.
    const doomedAfter = await waitFor('the down server to be down again', async () => {
      const r = (await t.call('GET', `/api/servers/${viaPrometheus.ids.doomed}`, { cookie: admin })).body.result;
      return r.state === 'down' ? r : null;
    }, 10_000, 100);
    expect(doomedAfter.stateChangedAt).toBe(doomedBefore.stateChangedAt);
  }, 120_000);
});
