import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveScrape } from '../../server/monitoring/derive';
import { parseExposition } from '../../server/monitoring/exposition';
import { panelDef, panelIds } from '../../server/monitoring/panels';
import type { Os } from '../../server/monitoring/types';
import { backends, startTestApp, type TestApp } from './harness';

const fixture = (name: string) => parseExposition(readFileSync(new URL(`../../server/monitoring/fixtures/${name}`, import.meta.url), 'utf8'));
const linuxScrapes = [fixture('node-exporter-scrape1.prom'), fixture('node-exporter-scrape2.prom')];
const windowsScrape = fixture('windows-exporter-0.20.prom');

const HOUR = 3_600_000;

describe.each(await backends())('chart API on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  const ids: Record<Os, string> = { linux: '', windows: '' };
  // Samples every 15 s from two hours ago until now, built from real exporter output.
  const now = Math.floor(Date.now() / 15_000) * 15_000;
  const start = now - 2 * HOUR;

  const feed = async (os: Os, serverId: string) => {
    for (let at = start; at <= now; at += 15_000) {
      // Linux: the two real scrapes, taken 5 s apart, give every sample real rates. Windows: one
      // capture seen twice, so its rates are 0 and its gauges real.
      const [first, second] = os === 'linux' ? linuxScrapes : [windowsScrape, windowsScrape];
      const { memory } = deriveScrape(os, first!, at - 5_000);
      const { derived } = deriveScrape(os, second!, at, memory);
      await t.app.monitoring.store.append(serverId, at, derived.series);
    }
    await t.app.monitoring.store.flush();
  };

  const chart = (id: string, query: Record<string, unknown>, cookie: string | null = admin) =>
    t.call('GET', `/api/servers/chart/${id}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { cookie: cookie ?? undefined });

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = (await t.signIn(a.email, a.password))!;
    const u = await t.addUser({ role: 'user' });
    user = (await t.signIn(u.email, u.password))!;
    for (const os of ['linux', 'windows'] as const) {
      const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `chart-${os}`, ipaddress: os === 'linux' ? '10.77.0.1' : '10.77.0.2', operating_system: os } });
      ids[os] = res.body.result._id;
      await feed(os, ids[os]);
    }
  });
  afterAll(async () => t.close());

  it('draws CPU Basic from real node_exporter output with the dashboard legends', async () => {
    const res = await chart(ids.linux, { panel: 77, from: now - HOUR, to: now, step: 60 }, user);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.result;
    expect(data.panel).toEqual({ id: 77, title: 'CPU Basic', kind: 'timeseries', unit: 'percentunit' });
    expect(data.series.map((s: { label: string }) => s.label)).toEqual(['Busy System', 'Busy User', 'Busy Iowait', 'Busy IRQs', 'Busy Other', 'Idle']);
    expect(data.timestamps).toHaveLength(61);
    expect(data.timestamps[1] - data.timestamps[0]).toBe(60);
    expect(data.timestamps[0]).toBe(Math.floor((now - HOUR) / 60_000) * 60);
    // Shares of the CPUs' time: each in [0, 1] and together about 1.
    const last = data.series.map((s: { values: (number | null)[] }) => s.values.findLast((v) => v !== null)!);
    for (const v of last) expect(v).toBeGreaterThanOrEqual(0);
    expect(last.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 1);
  });

  it('answers every panel of PANELS.md with lines, for both systems', async () => {
    const empty: string[] = [];
    for (const os of ['linux', 'windows'] as const) {
      for (const panel of panelIds(os)) {
        const res = await chart(ids[os], { panel, from: now - HOUR, to: now });
        expect(res.status).toBe(200);
        const data = res.body.result;
        expect(data.panel.title, `${os} ${panel}`).toBe(panelDef(os, panel)!.title);
        const points = data.series.flatMap((s: { values: (number | null)[] }) => s.values).filter((v: number | null) => v !== null);
        if (points.length === 0) empty.push(`${os} ${panel} ${data.panel.title}`);
      }
    }
    // windows_exporter's default collectors leave out `time` (the NTP offset).
    expect(empty).toEqual(['windows 42 NTP offset']);
  });

  it('mirrors the read half of Windows Disk R/W below zero and names volumes', async () => {
    const res = await chart(ids.windows, { panel: 8, from: now - HOUR, to: now, step: 300 });
    const labels: string[] = res.body.result.series.map((s: { label: string }) => s.label);
    expect(labels.some((l) => l.endsWith(' write'))).toBe(true);
    expect(labels.some((l) => l.endsWith(' read'))).toBe(true);
  });

  it('defaults the step to about 300 points and leaves gaps as null', async () => {
    const res = await chart(ids.linux, { panel: 20, from: now - 24 * HOUR, to: now });
    const data = res.body.result;
    // 24 h / 300 points = 288 s, rounded up to the five-minute rollup buckets.
    expect(data.timestamps[1] - data.timestamps[0]).toBe(300);
    const values: (number | null)[] = data.series[0].values;
    // Only the last two hours have samples.
    expect(values[0]).toBeNull();
    expect(values.at(-1)).not.toBeNull();
    expect(values.filter((v) => v !== null).length).toBeLessThan(30);
  });

  it('answers long ranges from five-minute rollups with the same figures as the raw samples', async () => {
    const store = t.app.monitoring.store;
    const query = { panel: 84, from: now - 3 * HOUR, to: now, step: 300 };
    const raw = (await chart(ids.linux, query)).body.result;
    expect(await store.rollup(now + 10 * 60_000, 1000)).toBeGreaterThan(20);
    const rows = await t.database.query<{ n: number }>('select count(*)::int as n from metric_rollups where server_id = $1', [ids.linux]);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(24);
    // Now the same chart reads the rollups; remove the raw samples to prove it.
    await t.database.query('delete from metric_samples where server_id = $1 and ts < $2', [ids.linux, new Date(now - 5 * 60_000)]);
    const rolled = (await chart(ids.linux, query)).body.result;
    expect(rolled.timestamps).toEqual(raw.timestamps);
    expect(rolled.series.map((s: { label: string }) => s.label)).toEqual(raw.series.map((s: { label: string }) => s.label));
    rolled.series.forEach((s: { values: (number | null)[] }, i: number) =>
      s.values.forEach((v, j) => {
        const r = raw.series[i].values[j];
        if (r === null) expect(v).toBeNull();
        else expect(Math.abs(v! - r), `${raw.series[i].label} @${j}`).toBeLessThanOrEqual(Math.abs(r) * 1e-4 + 1e-9);
      }),
    );
    // Pruning takes rollups with it.
    await store.prune(now + HOUR);
    expect(await t.database.query('select 1 from metric_rollups where server_id = $1', [ids.linux])).toEqual([]);
  });

  it('refuses bad input with a 400 naming the field, and unknown servers with 404', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ panel: 999, from: now - HOUR, to: now }, 'panel'],
      [{ panel: 'cpu', from: now - HOUR, to: now }, 'panel'],
      [{ panel: 77, from: now, to: now - HOUR }, 'to'],
      [{ panel: 77, to: now }, 'from'],
      [{ panel: 77, from: now - 40 * 24 * HOUR, to: now }, 'from'],
      [{ panel: 77, from: now - HOUR, to: now, step: 0 }, 'step'],
      [{ panel: 77, from: now - 30 * 24 * HOUR, to: now, step: 1 }, 'step'],
      [{ panel: 77, from: now - HOUR, to: now, colour: 'red' }, ''],
    ];
    for (const [query, field] of cases) {
      const res = await chart(ids.linux, query);
      expect(res.status, JSON.stringify([query, res.body])).toBe(400);
      if (field) expect(res.body.field ?? res.body.message).toContain(field);
    }
    // Panel 33 exists on Windows (Uptime) but not on Linux.
    expect((await chart(ids.linux, { panel: 33, from: now - HOUR, to: now })).body.message).toBe('There is no panel 33 for Linux servers');
    expect((await chart('00000000-0000-4000-8000-000000000000', { panel: 77, from: now - HOUR, to: now })).status).toBe(404);
    expect((await chart(ids.linux, { panel: 77, from: now - HOUR, to: now }, null)).status).toBe(401);
  });
});
