/**
 * node_exporter → usage figures, chart series (dashboard 1860's panels) and systemd services.
 * docs/metrics.md defines every figure; usage-promql.ts holds the same definitions as PromQL.
 */
import { all, DeriveContext, percent, sumRates, sumRatesBy } from './derive-context';
import { seriesKey } from './series-key';
import type { Labels, ServiceState, Usage } from './types';

/**
 * Interfaces left out of networkUsage: loopback, and software devices whose traffic is also
 * counted on a physical one (container veths and bridges, overlays, tunnels, traffic-shaping
 * ifb mirrors). PromQL regexes are anchored, so this body serves both JS and PromQL.
 */
export const LINUX_VIRTUAL_NET_DEVICES =
  'lo|veth.*|docker.*|br-.*|virbr.*|vnet.*|cni.*|flannel.*|cali.*|vxlan.*|tunl.*|tun[0-9]*|tap.*|kube-.*|ifb.*|weave.*|cilium.*|lxc.*';
/** Whole disks as dashboard 1860 picks them (its $diskdevices), so partitions and dm-* are not counted twice. */
export const LINUX_DISK_DEVICES = '[a-z]+|nvme[0-9]+n[0-9]+|mmcblk[0-9]+';

const virtualNet = new RegExp(`^(${LINUX_VIRTUAL_NET_DEVICES})$`);
const wholeDisk = new RegExp(`^(${LINUX_DISK_DEVICES})$`);

/** Dashboard 1860's "CPU Basic" groups: irq and softirq together, every mode it does not name as other. */
function cpuGroup(mode: string): string {
  switch (mode) {
    case 'system':
    case 'user':
    case 'iowait':
    case 'idle':
      return mode;
    case 'irq':
    case 'softirq':
      return 'irq';
    default:
      return 'other';
  }
}

/** Netstat counters charted as rates (panels 115, 55, 104), by series key. */
const NETSTAT_RATES: [string, string][] = [
  ['icmp_in_msgs', 'node_netstat_Icmp_InMsgs'],
  ['icmp_out_msgs', 'node_netstat_Icmp_OutMsgs'],
  ['udp_in_datagrams', 'node_netstat_Udp_InDatagrams'],
  ['udp_out_datagrams', 'node_netstat_Udp_OutDatagrams'],
  ['tcp_errors{stat="ListenOverflows"}', 'node_netstat_TcpExt_ListenOverflows'],
  ['tcp_errors{stat="ListenDrops"}', 'node_netstat_TcpExt_ListenDrops'],
  ['tcp_errors{stat="TCPSynRetrans"}', 'node_netstat_TcpExt_TCPSynRetrans'],
  ['tcp_errors{stat="RetransSegs"}', 'node_netstat_Tcp_RetransSegs'],
  ['tcp_errors{stat="InErrs"}', 'node_netstat_Tcp_InErrs'],
  ['tcp_errors{stat="OutRsts"}', 'node_netstat_Tcp_OutRsts'],
];

export interface OsDerived {
  usage: Usage;
  services: ServiceState[];
  servicesExposed: boolean;
}

export function deriveLinux(ctx: DeriveContext): OsDerived {
  const cpu = cpuFigures(ctx);
  const memory = memoryFigures(ctx);
  const diskUsage = filesystemFigures(ctx);
  const networkUsage = networkFigures(ctx);
  diskIoFigures(ctx);

  const load = [ctx.gauge('node_load1'), ctx.gauge('node_load5'), ctx.gauge('node_load15')] as const;
  ctx.set('load1', load[0]);
  ctx.set('load5', load[1]);
  ctx.set('load15', load[2]);
  ctx.set('load15_pct', load[2] !== null && cpu.cores ? (load[2] * 100) / cpu.cores : null);

  // The host's own clock when the time collector is on; Opsdeck's otherwise (as windows.ts does).
  const boot = ctx.gauge('node_boot_time_seconds');
  const uptime = boot === null ? null : (ctx.gauge('node_time_seconds') ?? ctx.atMs / 1000) - boot;
  ctx.set('uptime_seconds', uptime);

  for (const [key, metric] of NETSTAT_RATES) ctx.set(key, ctx.counterRate(metric));
  ctx.set('tcp_curr_estab', ctx.gauge('node_netstat_Tcp_CurrEstab'));
  ctx.set('tcp_max_conn', ctx.gauge('node_netstat_Tcp_MaxConn'));

  const { services, exposed } = systemdServices(ctx);
  return {
    usage: {
      cpuUsage: cpu.usage,
      memoryUsage: memory.usage,
      diskUsage,
      networkUsage,
      swapUsage: memory.swapUsage,
      uptime,
      cpuLoad1: load[0],
      cpuLoad5: load[1],
      cpuLoad15: load[2],
      cpuCores: cpu.cores,
      memorySaturation: memory.saturation,
      memoryTotal: memory.total,
      swapTotal: memory.swapTotal,
    },
    services,
    servicesExposed: exposed,
  };
}

function cpuFigures(ctx: DeriveContext): { cores: number | null; usage: number | null } {
  const rates = ctx.rates('node_cpu_seconds_total');
  const cpus = new Set(rates.map((r) => r.labels['cpu']));
  const cores = cpus.size > 0 ? cpus.size : null;
  ctx.set('cpu_cores', cores);

  const idle = rates.filter((r) => r.labels['mode'] === 'idle');
  const idleSum = sumRates(idle);
  // The average over CPUs of the idle rate, as panel 20 does; clamped (here and in the PromQL)
  // because idle time read per CPU can overshoot the wall-clock interval by a tick.
  const usage = idleSum === null ? null : Math.min(100, Math.max(0, 100 * (1 - idleSum / idle.length)));
  ctx.set('cpu_busy_pct', usage);
  if (cores) {
    for (const [group, sum] of sumRatesBy(rates, (l) => cpuGroup(l['mode'] ?? ''))) {
      ctx.set(seriesKey('cpu_share', { mode: group }), sum === null ? null : sum / cores);
    }
  }
  return { cores, usage };
}

function memoryFigures(ctx: DeriveContext) {
  const m = (field: string) => ctx.gauge(`node_memory_${field}_bytes`);
  const total = m('MemTotal');
  const free = m('MemFree');
  const available = m('MemAvailable');
  const buffers = m('Buffers');
  const cached = m('Cached');
  const slab = m('Slab');
  const reclaimable = m('SReclaimable');
  const pageTables = m('PageTables');
  const swapCached = m('SwapCached');
  const swapTotal = m('SwapTotal');
  const swapFree = m('SwapFree');
  const swapUsed = all(swapTotal, swapFree)?.reduce((t, f) => t - f) ?? null;

  // Panel 16; kernels before 3.14 have no MemAvailable, and guessing it would be a different figure.
  const usage = available === null ? null : percent(all(total, available) && total! - available, total);
  // No swap configured: no percentage rather than a misleading 0 % (swapTotal says 0).
  const swapUsage = percent(swapUsed, swapTotal);
  ctx.set('mem_total_bytes', total);
  ctx.set('mem_used_pct', usage);
  ctx.set('swap_total_bytes', swapTotal);
  ctx.set('swap_used_pct', swapUsage);

  const stack = all(total, free, buffers, cached, slab, pageTables, swapCached);
  ctx.set('mem_stack_bytes{part="apps"}', stack && stack[0] - stack[1] - stack[2] - stack[3] - stack[4] - stack[5] - stack[6]);
  ctx.set('mem_stack_bytes{part="page_tables"}', pageTables);
  ctx.set('mem_stack_bytes{part="swap_cache"}', swapCached);
  ctx.set('mem_stack_bytes{part="slab"}', slab);
  ctx.set('mem_stack_bytes{part="cache"}', cached);
  ctx.set('mem_stack_bytes{part="buffers"}', buffers);
  ctx.set('mem_stack_bytes{part="unused"}', free);
  ctx.set('mem_stack_bytes{part="swap"}', swapUsed);

  const cache = all(cached, buffers, reclaimable);
  const cacheBuffer = cache && cache[0] + cache[1] + cache[2];
  ctx.set('mem_basic_bytes{kind="total"}', total);
  ctx.set('mem_basic_bytes{kind="used"}', all(total, free, cacheBuffer) && total! - free! - cacheBuffer!);
  ctx.set('mem_basic_bytes{kind="cache_buffer"}', cacheBuffer);
  ctx.set('mem_basic_bytes{kind="free"}', free);
  ctx.set('mem_basic_bytes{kind="swap_used"}', swapUsed);

  ctx.set('mem_active_bytes', m('Active'));
  ctx.set('mem_inactive_bytes', m('Inactive'));
  ctx.set('mem_pages_in', ctx.counterRate('node_vmstat_pgpgin'));
  ctx.set('mem_pages_out', ctx.counterRate('node_vmstat_pgpgout'));

  // Memory saturation: pages swapped in + out per second (vmstat si/so), the USE method's sign
  // that memory is short. 0 on a host without swap; major page faults would also count
  // ordinary file reads.
  const swapIn = ctx.counterRate('node_vmstat_pswpin');
  const swapOut = ctx.counterRate('node_vmstat_pswpout');
  const saturation = all(swapIn, swapOut) && swapIn! + swapOut!;
  ctx.set('mem_swap_pages', saturation);

  return { total, usage, swapTotal, swapUsage, saturation };
}

/** Panels 154, 23, 152, 156, 43 per mountpoint; returns diskUsage, the root filesystem's percent used. */
function filesystemFigures(ctx: DeriveContext): number | null {
  const identity = (l: Labels) => `${l['device']}\u0000${l['fstype']}\u0000${l['mountpoint']}`;
  const byIdentity = (name: string) => new Map(ctx.samples(name).map((s) => [identity(s.labels), s.value]));
  const avail = byIdentity('node_filesystem_avail_bytes');
  const free = byIdentity('node_filesystem_free_bytes');
  const seen = new Set<string>();
  let rootUsed: number | null = null;
  for (const { labels, value: size } of ctx.samples('node_filesystem_size_bytes')) {
    const mountpoint = labels['mountpoint'];
    // The initramfs "rootfs" entry shadows the real root; the first real filesystem mounted
    // on a mountpoint stands for it (stacked mounts are rare and would share one chart line).
    if (mountpoint === undefined || labels['device'] === 'rootfs' || labels['fstype'] === 'rootfs' || seen.has(mountpoint)) continue;
    seen.add(mountpoint);
    const at = { mountpoint };
    const available = avail.get(identity(labels)) ?? null;
    const used = available === null ? null : size > 0 ? 100 - (available * 100) / size : null;
    ctx.set(seriesKey('fs_size_bytes', at), size);
    ctx.set(seriesKey('fs_avail_bytes', at), available);
    ctx.set(seriesKey('fs_free_bytes', at), free.get(identity(labels)));
    ctx.set(seriesKey('fs_used_bytes', at), available === null ? null : size - available);
    ctx.set(seriesKey('fs_used_pct', at), used);
    if (mountpoint === '/') rootUsed = used;
  }
  return rootUsed;
}

/** Panels 84/74 per device (every device, as the dashboard); returns networkUsage in bytes/s. */
function networkFigures(ctx: DeriveContext): number | null {
  const rx = ctx.rates('node_network_receive_bytes_total');
  const tx = ctx.rates('node_network_transmit_bytes_total');
  for (const r of rx) ctx.set(seriesKey('net_rx_bits', { device: r.labels['device'] ?? '' }), r.rate === null ? null : r.rate * 8);
  for (const r of tx) ctx.set(seriesKey('net_tx_bits', { device: r.labels['device'] ?? '' }), r.rate === null ? null : r.rate * 8);
  if (rx.length === 0 && tx.length === 0) return null;
  const physical = [...rx, ...tx].filter((r) => !virtualNet.test(r.labels['device'] ?? ''));
  // Only virtual devices (a container's view): nothing crosses a physical link, once a rate
  // could be measured at all; the first scrape stays unknown like every other rate.
  if (physical.length === 0) return ctx.intervalS === null ? null : 0;
  return sumRates(physical);
}

/** Panels 229 and 42: per whole disk, operations and bytes per second. */
function diskIoFigures(ctx: DeriveContext): void {
  const keep = (l: Labels) => wholeDisk.test(l['device'] ?? '');
  const each = (metric: string, key: string) => {
    for (const r of ctx.rates(metric, keep)) ctx.set(seriesKey(key, { device: r.labels['device']! }), r.rate);
  };
  each('node_disk_reads_completed_total', 'disk_reads');
  each('node_disk_writes_completed_total', 'disk_writes');
  each('node_disk_read_bytes_total', 'disk_read_bytes');
  each('node_disk_written_bytes_total', 'disk_written_bytes');
}

/**
 * node_systemd_unit_state has one row per unit and state; the row at 1 is the unit's state.
 * Only .service units are services; active → up, failed → down, any other state as systemd says it.
 */
function systemdServices(ctx: DeriveContext): { services: ServiceState[]; exposed: boolean } {
  const rows = ctx.samples('node_systemd_unit_state');
  const states = new Map<string, string>();
  for (const { labels, value } of rows) {
    const name = labels['name'];
    if (!name?.endsWith('.service')) continue;
    if (!states.has(name)) states.set(name, 'unknown');
    if (value === 1 && labels['state']) states.set(name, labels['state']);
  }
  const services = [...states].map(([name, state]) => ({
    name,
    status: state === 'active' ? 'up' : state === 'failed' ? 'down' : state,
  }));
  return { services, exposed: rows.length > 0 };
}
