/**
 * windows.ts on real windows_exporter 0.20 output (fixtures/windows-exporter-0.20.prom, one
 * capture). The second scrape is the same capture 15 s later with chosen counter increases,
 * so every rate below is worked out by hand from the fixture's numbers plus those increases.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveScrape } from './derive';
import { parseExposition } from './exposition';
import { panelDef, panelIds, pickSeries } from './panels';
import type { CounterMemory, Derived } from './types';

const capture = readFileSync(new URL('./fixtures/windows-exporter-0.20.prom', import.meta.url), 'utf8');

const OS_TIME = 1.667508748e9; // windows_os_time in the capture
const DT = 15;

/** The capture with some samples moved: `series` is the sample's name and label text as written. */
function edit(text: string, changes: Record<string, (value: number) => number>): string {
  const seen = new Set<string>();
  const out = text
    .split('\n')
    .map((line) => {
      const space = line.lastIndexOf(' ');
      const series = line.slice(0, space);
      const change = changes[series];
      if (!change || line.startsWith('#')) return line;
      seen.add(series);
      return `${series} ${change(Number(line.slice(space + 1)))}`;
    })
    .join('\n');
  const missing = Object.keys(changes).filter((s) => !seen.has(s));
  if (missing.length) throw new Error(`not in the capture: ${missing.join(', ')}`);
  return out;
}

const plus = (n: number) => (v: number) => v + n;
const cpu = (core: string, mode: string) => `windows_cpu_time_total{core="${core}",mode="${mode}"}`;
const NIC = 'nic="Intel_R__PRO_1000_MT_Network_Connection"';

/** Idle seconds each logical processor gained in the 15 s: 12 + 13.5 + 14 + 10.5 = 50. */
const IDLE_GAIN: Record<string, number> = { '0,0': 12, '0,1': 13.5, '0,2': 14, '0,3': 10.5 };
const later = edit(capture, {
  ...Object.fromEntries(Object.entries(IDLE_GAIN).map(([core, s]) => [cpu(core, 'idle'), plus(s)])),
  [cpu('0,0', 'user')]: plus(2.5),
  [cpu('0,0', 'privileged')]: plus(0.5),
  'windows_os_time': plus(DT),
  [`windows_net_bytes_received_total{${NIC}}`]: plus(900_000),
  [`windows_net_bytes_sent_total{${NIC}}`]: plus(300_000),
  [`windows_net_bytes_total{${NIC}}`]: plus(1_200_000),
  'windows_memory_swap_page_operations_total': plus(4_500),
});

function derive(text: string, atS: number, prev?: CounterMemory): { derived: Derived; memory: CounterMemory } {
  return deriveScrape('windows', parseExposition(text), atS * 1000, prev);
}

const close = (actual: number | null | undefined, expected: number) => {
  expect(actual).toBeTypeOf('number');
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(Math.abs(expected) * 1e-9 + 1e-12);
};

describe('deriveWindows on a real windows_exporter 0.20 capture', () => {
  const first = derive(capture, OS_TIME);
  const second = derive(later, OS_TIME + DT, first.memory).derived;
  const u = second.usage;

  it('cpuUsage: 100 × (1 − mean idle seconds per second over the logical processors)', () => {
    close(u.cpuUsage, 100 * (1 - (12 + 13.5 + 14 + 10.5) / 4 / DT)); // 16.67 %
    expect(second.series['cpu_busy_pct']).toBe(u.cpuUsage);
  });

  it('cpuCores: the distinct core labels when neither cs nor cpu reports a processor count', () => {
    expect(u.cpuCores).toBe(4);
  });

  it('cpuCores: windows_cs_logical_processors (≤0.29) or windows_cpu_logical_processor (≥0.30) when exported', () => {
    expect(derive(`${capture}\nwindows_cs_logical_processors 8\n`, OS_TIME).derived.usage.cpuCores).toBe(8);
    expect(derive(`${capture}\nwindows_cpu_logical_processor 6\n`, OS_TIME).derived.usage.cpuCores).toBe(6);
  });

  it('memoryUsage, memoryTotal: (total − free) / total, total = visible memory without the cs collector', () => {
    // windows_os_visible_memory_bytes 4256718848, windows_os_physical_memory_free_bytes 1379946496.
    close(u.memoryUsage, ((4256718848 - 1379946496) / 4256718848) * 100);
    expect(u.memoryTotal).toBe(4256718848);
  });

  it('memoryTotal: the installed physical memory of the cs collector comes before visible memory', () => {
    const d = derive(`${capture}\nwindows_cs_physical_memory_bytes 4294967296\n`, OS_TIME).derived.usage;
    expect(d.memoryTotal).toBe(4294967296);
    close(d.memoryUsage, ((4294967296 - 1379946496) / 4294967296) * 100);
  });

  it('swapUsage, swapTotal: paging files, (limit − free) / limit', () => {
    close(u.swapUsage, ((1476395008 - 1414107136) / 1476395008) * 100);
    expect(u.swapTotal).toBe(1476395008);
  });

  it('diskUsage: used percent over the lettered volumes together (HarddiskVolumeN left out)', () => {
    // C: free 43636490240 of 67938287616; HarddiskVolume4 (recovery, 87 % used) does not count.
    close(u.diskUsage, ((67938287616 - 43636490240) / 67938287616) * 100);
    close(second.series['volume_used_pct{volume="HarddiskVolume4"}'], 100 - (85983232 / 654311424) * 100);
    // With a D: volume the figure is over C: and D: together, like dashboard 14694's panel 23.
    const withD = `${capture}\nwindows_logical_disk_free_bytes{volume="D:"} 1e11\nwindows_logical_disk_size_bytes{volume="D:"} 2e11\n`;
    close(derive(withD, OS_TIME).derived.usage.diskUsage, ((67938287616 + 2e11 - (43636490240 + 1e11)) / (67938287616 + 2e11)) * 100);
  });

  it('networkUsage: bytes/s received plus sent over every adapter (windows_net_bytes_total)', () => {
    close(u.networkUsage, 1_200_000 / DT);
    close(second.series[`net_received_bytes{${NIC}}`], 900_000 / DT);
    close(second.series[`net_sent_bytes{${NIC}}`], 300_000 / DT);
  });

  it('networkUsage: received + sent when an exporter has no windows_net_bytes_total', () => {
    const strip = (t: string) => t.split('\n').filter((l) => !l.startsWith('windows_net_bytes_total')).join('\n');
    const a = derive(strip(capture), OS_TIME);
    close(derive(strip(later), OS_TIME + DT, a.memory).derived.usage.networkUsage, (900_000 + 300_000) / DT);
  });

  it('uptime: windows_os_time − boot time (windows_system_system_up_time is the boot timestamp in 0.20)', () => {
    close(u.uptime, OS_TIME + DT - 1.6673440377290363e9);
    close(first.derived.usage.uptime, OS_TIME - 1.6673440377290363e9);
  });

  it('cpuLoad1/5/15: null, Windows keeps no load average', () => {
    expect([u.cpuLoad1, u.cpuLoad5, u.cpuLoad15]).toEqual([null, null, null]);
  });

  it('memorySaturation: pages read from or written to disk per second (Memory\\Pages/sec)', () => {
    close(u.memorySaturation, 4_500 / DT);
  });

  it('CPU share per mode divides by the logical processors', () => {
    close(second.series['cpu_share{mode="idle"}'], 50 / DT / 4);
    close(second.series['cpu_share{mode="user"}'], 2.5 / DT / 4);
    close(second.series['cpu_share{mode="privileged"}'], 0.5 / DT / 4);
  });
});

describe('deriveWindows rates over time', () => {
  it('the first scrape has gauges but no rates', () => {
    const u = derive(capture, OS_TIME).derived.usage;
    expect(u.cpuUsage).toBeNull();
    expect(u.networkUsage).toBeNull();
    expect(u.memorySaturation).toBeNull();
    expect(u.memoryUsage).not.toBeNull();
    expect(u.diskUsage).not.toBeNull();
    expect(u.uptime).not.toBeNull();
  });

  it('counters that went down (exporter or host restart) give no rate, never a negative one', () => {
    const a = derive(later, OS_TIME);
    const reset = derive(capture, OS_TIME + DT, a.memory).derived;
    expect(reset.usage.cpuUsage).toBeNull();
    expect(reset.usage.networkUsage).toBeNull();
    expect(reset.usage.memorySaturation).toBeNull();
    for (const [key, value] of Object.entries(reset.series)) if (key !== 'ntp_offset_seconds') expect(value, key).toBeGreaterThanOrEqual(0);
  });
});

describe('deriveWindows services', () => {
  const states = ['continue pending', 'pause pending', 'paused', 'running', 'start pending', 'stop pending', 'stopped', 'unknown'];
  const service = (name: string, current: string) => states.map((s) => `windows_service_state{name="${name}",state="${s}"} ${s === current ? 1 : 0}`).join('\n');

  it('maps windows_service_state: running → up, stopped → down (no start mode known), any other state as Windows says it', () => {
    const text = `${capture}\n${service('spooler', 'stopped')}\n${service('w3svc', 'start pending')}\n`;
    const d = derive(text, OS_TIME).derived;
    expect(d.servicesExposed).toBe(true);
    expect([...d.services].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'dhcp', status: 'up' },
      { name: 'spooler', status: 'down' },
      { name: 'w3svc', status: 'start pending' },
    ]);
    expect(d.series['services_by_state{state="running"}']).toBe(1);
    expect(d.series['services_by_state{state="stopped"}']).toBe(1);
  });

  it('a stopped service is down only when Windows is meant to start it (start mode auto, boot, system)', () => {
    const modes = ['auto', 'boot', 'disabled', 'manual', 'system'];
    const startMode = (name: string, current: string) => modes.map((m) => `windows_service_start_mode{name="${name}",start_mode="${m}"} ${m === current ? 1 : 0}`).join('\n');
    const text = [
      capture,
      service('spooler', 'stopped') + '\n' + startMode('spooler', 'auto'),
      service('wuauserv', 'stopped') + '\n' + startMode('wuauserv', 'manual'),
      service('xblgamesave', 'stopped') + '\n' + startMode('xblgamesave', 'disabled'),
      service('bits', 'running') + '\n' + startMode('bits', 'manual'),
      '',
    ].join('\n');
    const status = new Map(derive(text, OS_TIME).derived.services.map((s) => [s.name, s.status]));
    expect(Object.fromEntries(status)).toEqual({ dhcp: 'up', spooler: 'down', wuauserv: 'stopped', xblgamesave: 'stopped', bits: 'up' });
  });

  it('servicesExposed is false when the service collector is off', () => {
    const text = capture.split('\n').filter((l) => !l.startsWith('windows_service_')).join('\n');
    const d = derive(text, OS_TIME).derived;
    expect(d.servicesExposed).toBe(false);
    expect(d.services).toEqual([]);
  });
});

describe('Windows chart series and panels.ts', () => {
  it('every Windows Exporter Dashboard panel finds its lines among the series of a real scrape', () => {
    // The capture's exporter ran without the time collector, which panel 42 (NTP offset) reads.
    const withTime = (t: string) => `${t}\nwindows_time_computed_time_offset_seconds 0.0021\n`;
    const first = derive(withTime(capture), OS_TIME);
    const keys = Object.keys(derive(withTime(later), OS_TIME + DT, first.memory).derived.series);
    const empty = panelIds('windows').filter((id) => pickSeries(panelDef('windows', id)!, keys).length === 0);
    expect(empty).toEqual([]);
  });
});
