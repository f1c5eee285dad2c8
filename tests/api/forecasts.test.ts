import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeForecasts } from '../../server/alerting/forecasts';
import { createDefaultRulesIfMissing } from '../../server/alerting/defaults';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Issue 16 forecasts end to end on the API: six hours of five-minute averages in the built-in
 * store → the forecast pass → GET servers/forecast → the "disk full within N hours" rule opens an
 * alert that says when, and a lower threshold resolves it.
 */
describe.each(await backends())('disk and memory forecasts on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let serverId: string;
  const q = <T = any>(text: string, params?: unknown[]) => t.database.query<T>(text, params);

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const [row] = await q<{ id: string }>(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured, state, cpu_usage, memory_usage, disk_usage, last_scraped_at)
       values ('fill-01', '10.77.0.1', 'linux', true, 'up', 10, 40, 72, now()) returning id`,
    );
    serverId = row!.id;
    await createDefaultRulesIfMissing(t.database.db, serverId);
    // Disk rises 2 % an hour to 72 % now; memory stays at 40 % with a single spike to 99 %.
    await q(`insert into metric_series (server_id, keys) values ($1, $2)`, [serverId, ['cpu_busy_pct', 'fs_used_pct{mountpoint="/"}', 'mem_used_pct']]);
    await q(
      `insert into metric_rollups (server_id, bucket, values)
       select $1, to_timestamp(floor(extract(epoch from now()) / 300) * 300 - i * 300),
              array[10, 72 - 2 * (i * 300 + 150) / 3600.0, case when i = 30 then 99 else 40 end]::real[]
       from generate_series(1, 72) as i`,
      [serverId],
    );
  });
  afterAll(async () => t.close());

  it('new servers get the two forecast rules beside the six, in hours', async () => {
    const config = await t.call('POST', '/api/alert-config/get-alert-config/all', { cookie: admin, body: { filter: { serverId } } });
    const rules = config.body.result.data[0].rules;
    expect(rules.map((r: any) => [r.name, r.metric, r.threshold, r.timeLimit, r.severity, r.enabled]).slice(6)).toEqual([
      ['disk_full_forecast', 'disk_forecast', 24, 300, 'warning', true],
      ['memory_exhausted_forecast', 'memory_forecast', 6, 300, 'warning', true],
    ]);
  });

  it('computes the time to full from the trend, unmoved by a spike, and serves it', async () => {
    const rows = await computeForecasts(t.database, Date.now());
    expect(rows.map((r) => r.metric).sort()).toEqual(['disk', 'memory']);
    const res = await t.call('GET', `/api/servers/forecast/${serverId}`, { cookie: admin });
    expect(res.status).toBe(200);
    const { disk, memory } = res.body.result;
    expect(disk.slopePerHour).toBeCloseTo(2, 1);
    expect(disk.hoursLeft).toBeGreaterThan(13);
    expect(disk.hoursLeft).toBeLessThan(14.5);
    expect(Date.parse(disk.fullAt) - Date.now()).toBeCloseTo(disk.hoursLeft * 3_600_000, -5);
    expect(memory).toMatchObject({ hoursLeft: null, fullAt: null });
    expect(Math.abs(memory.slopePerHour)).toBeLessThan(0.01);
    expect((await t.call('GET', '/api/servers/forecast/00000000-0000-4000-8000-000000000000', { cookie: admin })).status).toBe(404);
  });

  it('"disk full within 24 hours" opens after its grace period and says when; 12 hours resolves it', async () => {
    await t.app.alerting.tick();
    await q(`update alert_pending set since = since - interval '301 seconds' where server_id = $1`, [serverId]);
    await q(`update servers set last_scraped_at = now() where id = $1`, [serverId]);
    await t.app.alerting.tick();
    const [alert] = await q(`select * from alerts where server_id = $1 and alertname = 'disk_full_forecast'`, [serverId]);
    expect(alert).toMatchObject({ status: 'firing', type: 'resouce_alert', severity: 'warning', mountpoint: '/' });
    expect(alert.summary).toMatch(/^Disk of fill-01 full in about 1[34](\.\d)? hours$/);
    expect(alert.description).toMatch(/^Disk usage is \*\*7\d\.\d%\*\* and rising \*\*2\.00% an hour\*\* \(a robust linear fit over the last 6 hours\): \*\*100% at about \d{4}-\d\d-\d\d \d\d:\d\d UTC\*\*, within the 24-hour threshold\.$/);
    expect(await q(`select * from alerts where server_id = $1 and alertname = 'memory_exhausted_forecast'`, [serverId])).toEqual([]);

    const config = (await t.call('POST', '/api/alert-config/get-alert-config/all', { cookie: admin, body: { filter: { serverId } } })).body.result.data[0];
    const bad = await t.call('PATCH', `/api/alert-config/update-alert-config/${config._id}`, {
      cookie: admin,
      body: { ...config, rules: config.rules.map((r: any) => ({ ...r, threshold: r.name === 'disk_full_forecast' ? 90 : r.threshold })) },
    });
    expect([bad.status, bad.body.field]).toEqual([400, 'rules.6.threshold']);
    const cpuInHours = await t.call('PATCH', `/api/alert-config/update-alert-config/${config._id}`, {
      cookie: admin,
      body: { ...config, rules: config.rules.map((r: any) => ({ ...r, threshold: r.name === 'high_cpu_usage' ? 24 : r.threshold })) },
    });
    expect([cpuInHours.status, cpuInHours.body.field]).toEqual([400, 'rules.0.threshold']);
    const ok = await t.call('PATCH', `/api/alert-config/update-alert-config/${config._id}`, {
      cookie: admin,
      body: { ...config, rules: config.rules.map((r: any) => ({ ...r, threshold: r.name === 'disk_full_forecast' ? 12 : r.threshold })) },
    });
    expect(ok.status).toBe(200);
    await t.app.alerting.tick();
    const [after] = await q(`select status from alerts where id = $1`, [alert.id]);
    expect(after.status).toBe('resolved');
  });
});
