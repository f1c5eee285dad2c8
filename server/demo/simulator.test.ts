import { describe, expect, it } from 'vitest';
import { formatGoFloat } from './exposition';
import { defaultFleetSpecs } from './fleet';
import { createSimulatedHost, demoProfiles, type HostSpec } from './simulator';
import { cpuBusyPercent, downServices, memoryUsedPercent, one, parse, rootUsedPercent, select, seriesKey, type Parsed } from './testing';

const START = Date.UTC(2026, 10, 23, 8, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const fleet = defaultFleetSpecs(12);
const byName = (hostname: string): HostSpec => fleet.find((s) => s.hostname === hostname)!;
/** Instants across a simulated day, so a property is checked at many phases of every wave. */
const instants = Array.from({ length: 24 }, (_, i) => START + i * 61 * MIN + i * 7919);

function scrapeAt(spec: HostSpec, ...times: number[]): Parsed[] {
  const host = createSimulatedHost(spec, START);
  return times.map((t) => parse(host.render(t)));
}

describe('formatGoFloat', () => {
  it('writes numbers as Go strconv.FormatFloat(v, "g", -1, 64) does', () => {
    const cases: [number, string][] = [
      [0, '0'], [1, '1'], [-1, '-1'], [0.21, '0.21'], [100000, '100000'], [1234567, '1.234567e+06'], [1.6e10, '1.6e+10'],
      [0.0001, '0.0001'], [0.00001, '1e-05'], [2.46e-5, '2.46e-05'], [1.8446744073709552e19, '1.8446744073709552e+19'],
      [4294967295, '4.294967295e+09'], [NaN, 'NaN'], [Infinity, '+Inf'], [-Infinity, '-Inf'],
    ];
    for (const [v, text] of cases) expect(formatGoFloat(v), String(v)).toBe(text);
  });
});

describe('defaultFleetSpecs', () => {
  it('gives 12 hosts, 8 Linux and 4 Windows, covering every profile', () => {
    expect(fleet).toHaveLength(12);
    expect(fleet.filter((s) => s.os === 'linux')).toHaveLength(8);
    expect(new Set(fleet.map((s) => s.profile))).toEqual(new Set(demoProfiles));
    expect(new Set(fleet.map((s) => s.key)).size).toBe(12);
    expect(fleet.map((s) => s.hostname)).toContain('win-ad-01');
  });

  it('grows deterministically, mostly healthy, about a third Windows', () => {
    const big = defaultFleetSpecs(250);
    expect(defaultFleetSpecs(250)).toEqual(big);
    expect(big.slice(0, 12)).toEqual(fleet);
    expect(new Set(big.map((s) => s.key)).size).toBe(250);
    expect(new Set(big.map((s) => s.hostname)).size).toBe(250);
    const windows = big.filter((s) => s.os === 'windows').length / big.length;
    expect(windows).toBeGreaterThan(0.28);
    expect(windows).toBeLessThan(0.4);
    expect(big.filter((s) => s.profile === 'normal').length / big.length).toBeGreaterThan(0.6);
    expect(defaultFleetSpecs(5).map((s) => s.key)).toEqual(fleet.slice(0, 5).map((s) => s.key));
  });
});

describe('createSimulatedHost', () => {
  it('renders the same text for the same seed, start and instant', () => {
    for (const spec of fleet) {
      const t = START + 17 * MIN + 123;
      expect(createSimulatedHost(spec, START).render(t)).toBe(createSimulatedHost({ ...spec }, START).render(t));
    }
    const web = byName('web-01');
    expect(createSimulatedHost({ ...web, seed: web.seed + 1 }, START).render(START + MIN)).not.toBe(createSimulatedHost(web, START).render(START + MIN));
  });

  it('renders instants in any order with the same result (no hidden state)', () => {
    const host = createSimulatedHost(byName('win-sql-01'), START);
    const later = host.render(START + 2 * HOUR);
    host.render(START + 5 * MIN);
    expect(host.render(START + 2 * HOUR)).toBe(later);
  });

  it('never lets a counter go down, over seconds, minutes and days', () => {
    const times = [0, 1_000, 1_001, 15_000, 10 * MIN, 3 * HOUR, 2 * 24 * HOUR].map((d) => START + d);
    // vmstat and netstat are untyped in node_exporter but are counters, except these gauges.
    const gaugeLike = new Set(['node_netstat_Tcp_CurrEstab', 'node_netstat_Tcp_MaxConn', 'node_netstat_Ip_Forwarding']);
    for (const spec of fleet) {
      const scrapes = scrapeAt(spec, ...times);
      const isCounter = (name: string) => {
        const family = name.replace(/_(sum|count)$/, '');
        const type = scrapes[0]!.types.get(name) ?? scrapes[0]!.types.get(family);
        if (type === 'counter' || (type === 'summary' && name !== family)) return true;
        return type === 'untyped' && !gaugeLike.has(name);
      };
      let checked = 0;
      for (let i = 1; i < scrapes.length; i++) {
        const before = new Map(scrapes[i - 1]!.rows.map((r) => [seriesKey(r), r.value]));
        for (const r of scrapes[i]!.rows) {
          if (!isCounter(r.name)) continue;
          checked++;
          expect(r.value, `${spec.hostname} ${seriesKey(r)} at step ${i}`).toBeGreaterThanOrEqual(before.get(seriesKey(r))!);
        }
      }
      expect(checked).toBeGreaterThan(100);
    }
  });

  it('moves counters at the simulated rate: every core accounts for all of its time', () => {
    for (const spec of [byName('web-01'), byName('win-ad-01')]) {
      const [a, b] = scrapeAt(spec, START + HOUR, START + HOUR + 60_000);
      const name = spec.os === 'linux' ? 'node_cpu_seconds_total' : 'windows_cpu_time_total';
      const coreLabel = spec.os === 'linux' ? 'cpu' : 'core';
      for (let c = 0; c < spec.cores; c++) {
        const core = spec.os === 'linux' ? String(c) : `0,${c}`;
        const sum = (p: Parsed) => select(p, name, { [coreLabel]: core }).reduce((s, r) => s + r.value, 0);
        expect((sum(b!) - sum(a!)) / 60).toBeCloseTo(1, 1);
      }
    }
  });

  it('keeps gauges smooth: nothing jumps by more than a few percent in 15 s', () => {
    const [a, b] = scrapeAt(byName('db-01'), START + HOUR, START + HOUR + 15_000);
    expect(Math.abs(memoryUsedPercent(a!) - memoryUsedPercent(b!))).toBeLessThan(3);
    expect(Math.abs(rootUsedPercent(a!) - rootUsedPercent(b!))).toBeLessThan(0.5);
  });
});

describe('profiles', () => {
  const hotWindows: HostSpec = { ...byName('win-iis-01'), key: 'demo-win-hot', profile: 'hot-cpu' };

  it('hot-cpu: CPU busy above 90 % in every 15 s window; other hosts below', () => {
    for (const t of instants) {
      for (const spec of [byName('api-01'), hotWindows]) {
        const [a, b] = scrapeAt(spec, t, t + 15_000);
        expect(cpuBusyPercent(a!, b!, 15), `${spec.hostname} at ${t}`).toBeGreaterThan(90);
      }
      for (const spec of [byName('web-01'), byName('win-ad-01')]) {
        const [a, b] = scrapeAt(spec, t, t + 15_000);
        expect(cpuBusyPercent(a!, b!, 15)).toBeLessThan(75);
      }
    }
  });

  it('disk-full: root filesystem / C: more than 95 % used; other hosts well below', () => {
    for (const t of instants) {
      for (const spec of [byName('log-01'), byName('win-file-01')]) expect(rootUsedPercent(scrapeAt(spec, t)[0]!), spec.hostname).toBeGreaterThan(95);
      for (const spec of [byName('web-01'), byName('win-ad-01')]) expect(rootUsedPercent(scrapeAt(spec, t)[0]!)).toBeLessThan(80);
    }
  });

  it('memory-high: more than 90 % of RAM in use; other hosts well below', () => {
    for (const t of instants) {
      for (const spec of [byName('db-01'), byName('win-sql-01')]) expect(memoryUsedPercent(scrapeAt(spec, t)[0]!), spec.hostname).toBeGreaterThan(90);
      for (const spec of [byName('web-01'), byName('win-ad-01')]) expect(memoryUsedPercent(scrapeAt(spec, t)[0]!)).toBeLessThan(80);
    }
  });

  it('failing-services: a unit stays failed / a service stays stopped; healthy hosts have none', () => {
    for (const t of instants) {
      expect(downServices(scrapeAt(byName('cache-01'), t)[0]!)).toContain('redis-server.service');
      expect(downServices(scrapeAt(byName('win-iis-01'), t)[0]!)).toContain('w3svc');
      for (const spec of [byName('web-01'), byName('win-ad-01'), byName('db-01')]) expect(downServices(scrapeAt(spec, t)[0]!)).toEqual([]);
    }
  });

  it('failing-services: another unit keeps restarting, so alerts fire and resolve', () => {
    const states = new Set(instants.map((t) => downServices(scrapeAt(byName('cache-01'), t)[0]!).includes('memcached.service')));
    expect(states).toEqual(new Set([true, false]));
  });

  it('reports exactly one current state per unit and service', () => {
    for (const spec of [byName('cache-01'), byName('win-iis-01')]) {
      const p = scrapeAt(spec, START + 13 * MIN)[0]!;
      const rows = [...select(p, 'node_systemd_unit_state'), ...select(p, 'windows_service_state')];
      const perUnit = new Map<string, number>();
      for (const r of rows) perUnit.set(r.labels.name!, (perUnit.get(r.labels.name!) ?? 0) + r.value);
      expect([...perUnit.values()].every((n) => n === 1)).toBe(true);
      expect(perUnit.size).toBe(spec.services.length);
    }
  });

  it('busy-network: tens of MB/s on the main interface', () => {
    const [a, b] = scrapeAt(byName('edge-01'), START + HOUR, START + HOUR + 15_000);
    const rx = (p: Parsed) => one(p, 'node_network_receive_bytes_total', { device: 'ens5' });
    expect((rx(b!) - rx(a!)) / 15).toBeGreaterThan(5e6);
  });

  it('exposes what the dashboards read for uptime and load', () => {
    const [linux] = scrapeAt(byName('web-01'), START);
    expect(one(linux!, 'node_time_seconds') - one(linux!, 'node_boot_time_seconds')).toBeGreaterThan(86400);
    expect(one(linux!, 'node_load15')).toBeGreaterThan(0);
    const [win] = scrapeAt(byName('win-ad-01'), START);
    const uptime = one(win!, 'windows_os_time') - one(win!, 'windows_process_start_time', { process: 'Idle', process_id: '0' });
    expect(uptime).toBeGreaterThan(86400);
    expect(one(win!, 'windows_cs_logical_processors')).toBe(2);
  });
});
