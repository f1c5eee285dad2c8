/**
 * linux.ts on real node_exporter 1.5 output: two scrapes of one Debian 12 VM ~5 s apart
 * (fixtures/node-exporter-scrape1/2.prom). Every expected figure is worked out below from the
 * numbers in the fixture files, so a wrong formula shows up as a wrong number, not a changed
 * snapshot. docs/metrics.md states the definitions these numbers follow.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveScrape } from './derive';
import { parseExposition } from './exposition';
import { panelDef, panelIds, pickSeries } from './panels';
import type { CounterMemory, Derived } from './types';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const scrape1 = fixture('node-exporter-scrape1.prom');
const scrape2 = fixture('node-exporter-scrape2.prom');
const systemdUnits = fixture('node-systemd-units.prom');

// The exporter's own clock (node_time_seconds) at each scrape, used as the scrape time so the
// interval is the one the counters really moved over.
const T1 = 1.7954252716271222e9;
const T2 = 1.7954252766756413e9;
const DT = T2 - T1; // ≈ 5.0485 s

/** Derive one scrape taken at `atS` (seconds), optionally after a previous one. */
function derive(text: string, atS: number, prev?: CounterMemory): { derived: Derived; memory: CounterMemory } {
  return deriveScrape('linux', parseExposition(text), atS * 1000, prev);
}

function twoScrapes(a = scrape1, b = scrape2) {
  const first = derive(a, T1);
  const second = derive(b, T2, first.memory);
  return { first: first.derived, second: second.derived };
}

/** Replace the value of one sample line (name plus exact label text) in exposition text. */
function setSample(text: string, series: string, value: number): string {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`${series} `));
  if (i === -1) throw new Error(`no sample ${series} in the fixture`);
  lines[i] = `${series} ${value}`;
  return lines.join('\n');
}

/**
 * Equal up to round-off: scrape times travel as milliseconds since 1970 (≈1.8e12, so about
 * 2e-4 ms resolution), which moves a 5 s interval by a few parts in 1e8.
 */
const close = (actual: number | null | undefined, expected: number) => {
  expect(actual).toBeTypeOf('number');
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(Math.abs(expected) * 1e-6 + 1e-12);
};

describe('deriveLinux on two real node_exporter scrapes', () => {
  const { first, second } = twoScrapes();

  it('cpuUsage: 100 × (1 − mean idle seconds per second over the CPUs)', () => {
    // cpu0 idle 9581.41 → 9585.99, cpu1 idle 9592 → 9596.58: both +4.58 s.
    const idlePerSecond = (9585.99 - 9581.41 + (9596.58 - 9592)) / 2 / DT;
    close(second.usage.cpuUsage, 100 * (1 - idlePerSecond));
    expect(second.usage.cpuUsage).toBeCloseTo(9.2803, 3);
    expect(second.series['cpu_busy_pct']).toBe(second.usage.cpuUsage);
  });

  it('cpuCores: the number of distinct cpu labels of node_cpu_seconds_total', () => {
    expect(second.usage.cpuCores).toBe(2);
    expect(first.usage.cpuCores).toBe(2);
  });

  it('memoryUsage, memoryTotal: (MemTotal − MemAvailable) / MemTotal, and MemTotal in bytes', () => {
    close(second.usage.memoryUsage, ((25276063744 - 24635219968) / 25276063744) * 100);
    close(first.usage.memoryUsage, ((25276063744 - 24428855296) / 25276063744) * 100);
    expect(second.usage.memoryTotal).toBe(25276063744);
  });

  it('swapUsage, swapTotal: no swap configured gives swapTotal 0 and no percentage', () => {
    expect(second.usage.swapTotal).toBe(0);
    expect(second.usage.swapUsage).toBeNull();
  });

  it('swapUsage: (SwapTotal − SwapFree) / SwapTotal when there is swap', () => {
    let text = setSample(scrape2, 'node_memory_SwapTotal_bytes', 2147483648);
    text = setSample(text, 'node_memory_SwapFree_bytes', 1610612736);
    const d = derive(text, T2).derived;
    close(d.usage.swapUsage, ((2147483648 - 1610612736) / 2147483648) * 100); // 25 %
    expect(d.usage.swapTotal).toBe(2147483648);
  });

  it('diskUsage: used percent of the root filesystem, 100 − avail × 100 / size', () => {
    // Scrape 2: / on /dev/vda, ext4; avail 84750315520 of 270553174016 bytes.
    close(second.usage.diskUsage, 100 - (84750315520 * 100) / 270553174016);
    close(first.usage.diskUsage, 100 - (84778586112 * 100) / 270553174016);
    expect(second.usage.diskUsage).toBeCloseTo(68.675, 3);
    expect(second.series['fs_used_pct{mountpoint="/"}']).toBe(second.usage.diskUsage);
  });

  it('diskUsage: the initramfs rootfs entry does not stand for /', () => {
    const shadow = [
      'node_filesystem_avail_bytes{device="rootfs",fstype="rootfs",mountpoint="/"} 1000',
      'node_filesystem_size_bytes{device="rootfs",fstype="rootfs",mountpoint="/"} 1000',
    ].join('\n');
    const d = derive(`${shadow}\n${scrape2}`, T2).derived;
    close(d.usage.diskUsage, 100 - (84750315520 * 100) / 270553174016);
  });

  it('networkUsage: bytes/s received plus sent over the physical interfaces', () => {
    // eth0 rx 147160168 → 147162640 (+2472), tx 269998 → 272740 (+2742); ifb0/ifb1 stay 0.
    close(second.usage.networkUsage, (2472 + 2742) / DT);
    close(second.series['net_rx_bits{device="eth0"}'], (2472 * 8) / DT);
    close(second.series['net_tx_bits{device="eth0"}'], (2742 * 8) / DT);
  });

  it('networkUsage: loopback and virtual devices (docker bridges, veths) are left out', () => {
    const extra = (rx: number, tx: number) =>
      ['lo', 'docker0', 'veth1a2b3c'].flatMap((device) => [`node_network_receive_bytes_total{device="${device}"} ${rx}`, `node_network_transmit_bytes_total{device="${device}"} ${tx}`]).join('\n');
    const a = derive(`${scrape1}\n${extra(1e6, 2e6)}\n`, T1);
    const b = derive(`${scrape2}\n${extra(9e6, 7e6)}\n`, T2, a.memory).derived;
    close(b.usage.networkUsage, (2472 + 2742) / DT);
    // The charts still show every device, as dashboard 1860 does.
    close(b.series['net_rx_bits{device="lo"}'], (8e6 * 8) / DT);
  });

  it('uptime: node_time_seconds − node_boot_time_seconds', () => {
    close(second.usage.uptime, 1.7954252766756413e9 - 1.795415533e9);
    close(first.usage.uptime, 1.7954252716271222e9 - 1.795415533e9);
  });

  it('uptime: Opsdeck’s clock stands in for node_time_seconds when the time collector is off', () => {
    const noClock = scrape2.split('\n').filter((l) => !l.startsWith('node_time_seconds')).join('\n');
    close(derive(noClock, T2 + 3).derived.usage.uptime, T2 + 3 - 1.795415533e9);
    const noBoot = scrape2.split('\n').filter((l) => !l.startsWith('node_boot_time_seconds')).join('\n');
    expect(derive(noBoot, T2).derived.usage.uptime).toBeNull();
  });

  it('cpuLoad1/5/15: node_load1/5/15 as exported', () => {
    expect([second.usage.cpuLoad1, second.usage.cpuLoad5, second.usage.cpuLoad15]).toEqual([0.32, 0.1, 0.03]);
    expect([first.usage.cpuLoad1, first.usage.cpuLoad5, first.usage.cpuLoad15]).toEqual([0.34, 0.1, 0.03]);
    // Panel 19: load15 per core in percent.
    close(second.series['load15_pct'], (0.03 * 100) / 2);
  });

  it('memorySaturation: pages swapped in plus out per second (vmstat pswpin + pswpout)', () => {
    // The fixture host has no swap: both counters stay 0.
    expect(second.usage.memorySaturation).toBe(0);
    const a = derive(setSample(setSample(scrape1, 'node_vmstat_pswpin', 1000), 'node_vmstat_pswpout', 4000), T1);
    const b = derive(setSample(setSample(scrape2, 'node_vmstat_pswpin', 1150), 'node_vmstat_pswpout', 4090), T2, a.memory).derived;
    close(b.usage.memorySaturation, (150 + 90) / DT);
  });

  it('CPU Basic shares add up to the whole machine', () => {
    const shares = Object.entries(second.series).filter(([k]) => k.startsWith('cpu_share{'));
    expect(shares.map(([k]) => k).sort()).toEqual(
      ['idle', 'iowait', 'irq', 'other', 'system', 'user'].map((m) => `cpu_share{mode="${m}"}`),
    );
    // user: cpu0 48.76 → 49.08, cpu1 60.84 → 61.04.
    close(second.series['cpu_share{mode="user"}'], (49.08 - 48.76 + (61.04 - 60.84)) / DT / 2);
    // Every CPU second lands in exactly one mode; /proc/stat ticks make the sum a little off 1.
    const sum = shares.reduce((s, [, v]) => s + v, 0);
    expect(sum).toBeGreaterThan(0.97);
    expect(sum).toBeLessThan(1.03);
  });
});

describe('deriveLinux rates over time', () => {
  it('the first scrape has gauges but no rates', () => {
    const { first } = twoScrapes();
    expect(first.usage.cpuUsage).toBeNull();
    expect(first.usage.networkUsage).toBeNull();
    expect(first.usage.memorySaturation).toBeNull();
    expect(first.usage.memoryUsage).not.toBeNull();
    expect(first.usage.diskUsage).not.toBeNull();
    expect(first.series['cpu_busy_pct']).toBeUndefined();
    expect(Object.keys(first.series).filter((k) => k.startsWith('net_rx_bits') || k.startsWith('cpu_share') || k.startsWith('disk_reads'))).toEqual([]);
  });

  it('a counter that goes down (exporter or host restart) gives no rate, never a negative one', () => {
    // Scrape 2 then scrape 1 a few seconds later: every counter that moved went backwards.
    const a = derive(scrape2, T2);
    const reset = derive(scrape1, T2 + 5, a.memory);
    const u = reset.derived.usage;
    expect(u.cpuUsage).toBeNull();
    expect(u.networkUsage).toBeNull();
    for (const [key, value] of Object.entries(reset.derived.series)) expect(value, key).toBeGreaterThanOrEqual(0);
    expect(reset.derived.series['cpu_busy_pct']).toBeUndefined();
    // The scrape after the reset measures from the reset values again.
    const after = derive(scrape2, T2 + 5 + DT, reset.memory).derived;
    close(after.usage.cpuUsage, 100 * (1 - (9585.99 - 9581.41 + (9596.58 - 9592)) / 2 / DT));
    close(after.usage.networkUsage, (2472 + 2742) / DT);
  });

  it('one interface that restarts its counters makes networkUsage unknown for that scrape only', () => {
    const a = derive(scrape1, T1);
    const b = derive(setSample(scrape2, 'node_network_transmit_bytes_total{device="eth0"}', 10), T2, a.memory);
    expect(b.derived.usage.networkUsage).toBeNull();
    const c = derive(setSample(scrape2, 'node_network_transmit_bytes_total{device="eth0"}', 10 + 500), T2 + 10, b.memory).derived;
    close(c.usage.networkUsage, (0 + 500) / 10);
  });

  it('a clock that did not move forward gives no rates', () => {
    const a = derive(scrape1, T1);
    const b = derive(scrape2, T1, a.memory).derived;
    expect(b.usage.cpuUsage).toBeNull();
    expect(b.usage.networkUsage).toBeNull();
  });
});

describe('deriveLinux services', () => {
  it('maps node_systemd_unit_state of .service units to up, down or systemd’s own word', () => {
    const d = derive(`${scrape2}\n${systemdUnits}`, T2).derived;
    expect(d.servicesExposed).toBe(true);
    expect([...d.services].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'cron.service', status: 'up' },
      { name: 'nginx.service', status: 'down' },
      { name: 'postgresql@15-main.service', status: 'activating' },
      { name: 'rsync.service', status: 'inactive' },
      { name: 'ssh.service', status: 'up' },
    ]);
  });

  it('servicesExposed is false when the systemd collector is off', () => {
    const d = derive(scrape2, T2).derived;
    expect(d.servicesExposed).toBe(false);
    expect(d.services).toEqual([]);
  });
});

describe('deriveLinux without a physical interface', () => {
  const virtualOnly = (rx: number) =>
    ['lo', 'veth0'].flatMap((device) => [`node_network_receive_bytes_total{device="${device}"} ${rx}`, `node_network_transmit_bytes_total{device="${device}"} ${rx}`]).join('\n') + '\n';

  it('networkUsage is unknown on the first scrape and 0 after, like any other rate', () => {
    const a = derive(virtualOnly(100), T1);
    expect(a.derived.usage.networkUsage).toBeNull();
    expect(derive(virtualOnly(5000), T2, a.memory).derived.usage.networkUsage).toBe(0);
  });
});

describe('Linux chart series and panels.ts', () => {
  it('every Node Exporter Full panel finds its lines among the series of a real scrape', () => {
    const a = derive(scrape1, T1);
    const keys = Object.keys(derive(`${scrape2}\n${systemdUnits}`, T2, a.memory).derived.series);
    const empty = panelIds('linux').filter((id) => pickSeries(panelDef('linux', id)!, keys).length === 0);
    expect(empty).toEqual([]);
  });
});
