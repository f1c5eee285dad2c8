/**
 * Opsdeck's own /metrics (issue 12 §3) scraped by Debian's real Prometheus: with the bearer token
 * it is up, without it Prometheus sees 401; request durations are labelled by route pattern
 * (bounded cardinality), and scrapes, the leader, the queue and the process report.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { nodeExporterWithDisk } from '../../server/monitoring/fixtures/node-exporter';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { freePort, havePrometheus, startPrometheus, waitFor, type Proc } from './processes';

const TOKEN = 'self-metrics-token';
const [pglite] = (await backends()).filter((b) => b.name === 'pglite');

describe.skipIf(!havePrometheus)("Opsdeck's own metrics, scraped by Prometheus", () => {
  let t: TestApp;
  let exporter: Server;
  let prometheus: Proc & { url: string };
  let admin: string;
  let serverId: string;

  const query = async (expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
    const res = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    return body.data.result;
  };

  beforeAll(async () => {
    exporter = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(nodeExporterWithDisk(50)));
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const base = testConfig();
    t = await startTestApp(pglite!, {
      metrics: { enabled: true, token: TOKEN },
      monitoring: { ...base.monitoring, enabled: true, scrapeIntervalS: 1, scrapeTimeoutS: 0.9 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (t.app.server.address() as AddressInfo).port;
    const user = await t.addUser({ role: 'admin' });
    admin = await t.signIn(user.email, user.password);
    const created = await t.call('POST', '/api/servers', {
      cookie: admin,
      body: { hostname: 'self-metrics', ipaddress: '127.0.0.1', operating_system: 'linux', agentPort: (exporter.address() as AddressInfo).port, isAgentConfigured: true },
    });
    serverId = created.body.result._id;
    prometheus = startPrometheus({
      port: await freePort(),
      scrapeConfigs: `  - job_name: opsdeck-self
    static_configs: [{ targets: ['127.0.0.1:${appPort}'] }]
    authorization: { type: Bearer, credentials: ${TOKEN} }
  - job_name: opsdeck-self-no-token
    static_configs: [{ targets: ['127.0.0.1:${appPort}'] }]
`,
    });
  }, 60_000);

  afterAll(async () => {
    await prometheus?.stop();
    await t?.close();
    await new Promise<void>((resolve) => exporter?.close(() => resolve()));
  });

  it('refuses /metrics without the token, and serves the Prometheus text format with it', async () => {
    const without = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(without.statusCode).toBe(401);
    expect(without.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const ok = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.body).toMatch(/^# HELP opsdeck_http_request_duration_seconds /m);
    expect(ok.body).toMatch(/^process_cpu_seconds_total \d/m);
    expect(ok.body).toMatch(/^opsdeck_leader 1$/m);
  });

  it('is scraped by the real Prometheus: up with the token, 401 without', async () => {
    await waitFor(`Prometheus to scrape Opsdeck\n${prometheus.output()}`, async () => (await query('up{job="opsdeck-self"} == 1')).length === 1, 30_000);
    await waitFor('the refused scrape', async () => (await query('up{job="opsdeck-self-no-token"} == 0')).length === 1, 10_000);
    const targets = (await (await fetch(`${prometheus.url}/api/v1/targets`)).json()) as { data: { activeTargets: { labels: { job: string }; lastError: string }[] } };
    expect(targets.data.activeTargets.find((x) => x.labels.job === 'opsdeck-self-no-token')!.lastError).toMatch(/401/);
  });

  it('labels request durations by route pattern, never by id or raw path', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await t.call('GET', `/api/servers/${serverId}`, { cookie: admin })).status).toBe(200);
      expect((await t.call('GET', `/api/servers/00000000-0000-4000-8000-00000000000${i}`, { cookie: admin })).status).toBe(404);
      await t.app.inject({ method: 'GET', url: `/no-such-thing-${i}.php` });
    }
    const series = await waitFor(
      'request series in Prometheus',
      async () => {
        const rows = await query('opsdeck_http_request_duration_seconds_count{job="opsdeck-self"}');
        return rows.some((r) => r.metric['route'] === '/api/servers/:id' && r.metric['status_code'] === '404') ? rows : null;
      },
      20_000,
    );
    const routes = new Set(series.map((r) => r.metric['route']));
    expect(routes).toContain('/api/servers/:id');
    expect(routes).toContain('not_found');
    expect(routes).toContain('/metrics');
    for (const route of routes) expect(route, 'a raw id or path in a route label').not.toMatch(/[0-9a-f]{8}-|no-such-thing/);
    const ok = series.find((r) => r.metric['route'] === '/api/servers/:id' && r.metric['status_code'] === '200' && r.metric['method'] === 'GET');
    expect(Number(ok!.value[1])).toBeGreaterThanOrEqual(3);
  });

  it('reports scrapes, the leader, the delivery queue, freshness and the process', async () => {
    const scrapes = await waitFor('scrape counts', async () => {
      const rows = await query('opsdeck_scrapes_total{job="opsdeck-self",outcome="success"}');
      return rows.length && Number(rows[0]!.value[1]) > 0 ? rows : null;
    }, 20_000);
    expect(Number(scrapes[0]!.value[1])).toBeGreaterThan(0);
    for (const [expr, value] of [
      ['opsdeck_leader{job="opsdeck-self"}', '1'],
      ['opsdeck_delivery_queue_depth{job="opsdeck-self"}', '0'],
      ['opsdeck_monitoring_fresh{job="opsdeck-self"}', '1'],
      ['opsdeck_stale_servers{job="opsdeck-self"}', '0'],
    ] as const) {
      const rows = await waitFor(expr, async () => ((await query(expr)).length ? query(expr) : null), 10_000);
      expect(rows[0]!.value[1], expr).toBe(value);
    }
    expect((await query('opsdeck_scrape_duration_seconds_count{job="opsdeck-self"}')).length).toBeGreaterThan(0);
    expect((await query('process_resident_memory_bytes{job="opsdeck-self"}')).length).toBe(1);
    expect((await query('nodejs_eventloop_lag_seconds{job="opsdeck-self"}')).length).toBe(1);
  });

  it('ships a Grafana dashboard whose every query is valid PromQL over metrics Opsdeck exposes', async () => {
    const dashboard = JSON.parse(readFileSync(new URL('../../docs/grafana/opsdeck-self.json', import.meta.url), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
    const exposed = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const names = new Set([...exposed.matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap(([, name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name!])));
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((x) => ({ panel: p.title, expr: x.expr })));
    expect(exprs.length).toBeGreaterThan(15);
    for (const { panel, expr } of exprs) {
      for (const metric of expr.match(/\b(opsdeck_\w+|process_\w+|nodejs_\w+)/g) ?? []) expect(names.has(metric), `${panel}: ${metric}`).toBe(true);
      const concrete = expr.replaceAll('$job', '.*').replaceAll('$__rate_interval', '1m');
      const res = (await (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(concrete)}`)).json()) as { status: string; error?: string };
      expect(res.status, `${panel}: ${res.error}`).toBe('success');
    }
  });
});
