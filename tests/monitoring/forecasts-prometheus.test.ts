import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computePrometheusForecasts, MIN_PROM_POINTS } from '../../server/alerting/forecasts-promql';
import { openDatabase, type Database } from '../../server/db/client';
import { servers } from '../../server/db/schema';
import { PrometheusClient } from '../../server/monitoring/prometheus-client';
import { testConfig } from '../../server/config';
import { backends, startTestApp } from '../api/harness';
import { freePort, run, waitFor, type Proc } from './processes';

const VICTORIA = '/usr/bin/victoria-metrics';
const HOUR = 3600_000;
const GIB = 1024 ** 3;

/**
 * Forecasts in Prometheus mode (issue 16 §2): predict_linear and deriv over a real
 * Prometheus-compatible store's history. Six hours of node_exporter series are imported into
 * Debian's VictoriaMetrics (Prometheus itself cannot take history in through its API), with the
 * issue's shapes: a steady fill, a sawtooth (log rotation), a flat line, and too little history.
 */
describe.skipIf(!existsSync(VICTORIA))('forecasts from predict_linear (VictoriaMetrics)', () => {
  let vm: Proc;
  let dir: string;
  let url: string;
  let database: Database;
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const ids: Record<string, string> = {};

  /** One node_exporter host's disk and memory, every minute over `hours`, from the shapes given (percent used). */
  function host(instance: string, hours: number, disk: (h: number) => number, memory: (h: number) => number): string[] {
    const timestamps: number[] = [];
    for (let t = now - hours * HOUR; t <= now; t += 60_000) timestamps.push(t);
    const ago = (t: number) => hours - (now - t) / HOUR;
    const fs = { device: '/dev/sda1', fstype: 'ext4', mountpoint: '/' };
    const line = (name: string, labels: Record<string, string>, values: number[]) => JSON.stringify({ metric: { __name__: name, job: 'node', instance, ...labels }, values, timestamps });
    return [
      line('node_filesystem_size_bytes', fs, timestamps.map(() => 100 * GIB)),
      line('node_filesystem_avail_bytes', fs, timestamps.map((t) => (100 - disk(ago(t))) * GIB)),
      line('node_memory_MemTotal_bytes', {}, timestamps.map(() => 16 * GIB)),
      line('node_memory_MemAvailable_bytes', {}, timestamps.map((t) => ((100 - memory(ago(t))) / 100) * 16 * GIB)),
    ];
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'opsdeck-vm-forecast-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    vm = run(VICTORIA, [`-httpListenAddr=127.0.0.1:${port}`, `-storageDataPath=${join(dir, 'vm')}`, '-loggerLevel=ERROR', '-search.latencyOffset=0s', '-search.disableCache', '-retentionPeriod=1']);
    await waitFor(`VictoriaMetrics\n${vm.output()}`, async () => (await fetch(`${url}/health`).catch(() => null))?.ok);
    const lines = [
      // 50 % six hours ago, +2 %/h: 62 % now, full in 19 hours.
      ...host('10.7.0.1:9100', 6, (h) => 50 + 2 * h, () => 40),
      // Sawtooth: logs grow 2 %/h from 60 % and rotation takes 3 % back every 2 hours: net +0.5 %/h,
      // which the line over whole teeth follows (not the 2 %/h within one).
      ...host('10.7.0.2:9100', 6, (h) => 60 + 2 * h - 3 * Math.floor(h / 2), (h) => 30 + 5 * h),
      // Flat.
      ...host('10.7.0.3:9100', 6, () => 70, () => 50),
      // Forty minutes of history: too little to forecast.
      ...host('10.7.0.4:9100', 40 / 60, (h) => 50 + 10 * h, (h) => 50 + 10 * h),
    ];
    const res = await fetch(`${url}/api/v1/import`, { method: 'POST', body: lines.join('\n') });
    expect(res.status, await res.text()).toBe(204);
    await fetch(`${url}/internal/force_flush`);
    database = await openDatabase({});
    for (const [n, ip] of [
      ['fill', '10.7.0.1'],
      ['saw', '10.7.0.2'],
      ['flat', '10.7.0.3'],
      ['young', '10.7.0.4'],
    ] as const) {
      const [row] = await database.db.insert(servers).values({ hostname: `forecast-${n}`, ipaddress: ip, operatingSystem: 'linux', state: 'up', isAgentConfigured: true }).returning();
      ids[n] = row!.id;
    }
    // The imported series are searchable once the store has indexed them.
    const client = new PrometheusClient(url);
    await waitFor('imported series', async () => (await client.query('count(node_filesystem_size_bytes)', now / 1000))[0]?.value === 4, 30_000);
  }, 120_000);
  afterAll(async () => {
    await vm?.stop();
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes the forecasts the built-in store would: filling, flat, too little history', async () => {
    const client = new PrometheusClient(url);
    const written = await computePrometheusForecasts(database, client, now);
    const rows = await database.query<{ server_id: string; metric: string; hours_left: number | null; slope_per_hour: number; fitted_now: number; points: number }>(
      'select server_id, metric, hours_left, slope_per_hour, fitted_now, points from server_forecasts',
    );
    expect(rows.length).toBe(written.length);
    const of = (n: string, metric: string) => rows.find((r) => r.server_id === ids[n] && r.metric === metric);

    const fill = of('fill', 'disk')!;
    expect(fill.slope_per_hour).toBeCloseTo(2, 1);
    expect(fill.fitted_now).toBeCloseTo(62, 0);
    expect(fill.hours_left).toBeCloseTo(19, 0);
    expect(fill.points).toBeGreaterThanOrEqual(MIN_PROM_POINTS);
    expect(of('fill', 'memory')).toMatchObject({ hours_left: null });

    const saw = of('saw', 'disk')!;
    expect(saw.slope_per_hour).toBeGreaterThan(0.2);
    expect(saw.slope_per_hour).toBeLessThan(1.5);
    expect(saw.hours_left).not.toBeNull();
    expect(of('saw', 'memory')!.slope_per_hour).toBeCloseTo(5, 1);

    expect(of('flat', 'disk')).toMatchObject({ hours_left: null });
    expect(Math.abs(of('flat', 'disk')!.slope_per_hour)).toBeLessThan(0.01);
    expect(of('young', 'disk')).toBeUndefined();
    expect(of('young', 'memory')).toBeUndefined();
  });

  it('keeps no forecast for a server that is no longer up, and fails loudly when the store does not answer', async () => {
    await database.query(`update servers set state = 'down' where id = $1`, [ids.fill]);
    await computePrometheusForecasts(database, new PrometheusClient(url), now);
    expect(await database.query('select * from server_forecasts where server_id = $1', [ids.fill])).toEqual([]);
    const before = await database.query('select * from server_forecasts order by server_id, metric');
    expect(before.length).toBeGreaterThan(0);
    await expect(computePrometheusForecasts(database, new PrometheusClient(`http://127.0.0.1:${await freePort()}`), now)).rejects.toThrow();
    expect(await database.query('select * from server_forecasts order by server_id, metric')).toEqual(before);
  });

  it('Prometheus mode wires it into the evaluator, and the Disk tab’s call answers it', async () => {
    const [pglite] = await backends();
    const base = testConfig();
    const t = await startTestApp(pglite!, { monitoring: { ...base.monitoring, enabled: false, prometheusUrl: url } });
    try {
      const u = await t.addUser({ role: 'user' });
      const cookie = await t.signIn(u.email, u.password);
      const [row] = await t.database.db.insert(servers).values({ hostname: 'forecast-app', ipaddress: '10.7.0.1', operatingSystem: 'linux', state: 'up', isAgentConfigured: true }).returning();
      expect(t.app.alerting.forecaster).not.toBeNull();
      await t.app.alerting.forecaster!(now);
      const res = await t.call('GET', `/api/servers/forecast/${row!.id}`, { cookie });
      expect(res.status).toBe(200);
      expect(res.body.result.disk.hoursLeft).toBeCloseTo(19, 0);
      expect(res.body.result.memory.hoursLeft).toBeNull();
    } finally {
      await t.close();
    }
  }, 120_000);
});
