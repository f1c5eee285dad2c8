/**
 * windows_exporter → usage figures, chart series (dashboard 14694's panels) and services.
 * Metric names changed across exporter versions (the cs collector was retired in 0.30, os
 * figures moved to memory/pagefile/system/time); each figure reads the newest name first and
 * falls back to older ones, in the same order as the PromQL in usage-promql.ts.
 */
import { all, DeriveContext, percent, sumRates, sumRatesBy } from './derive-context';
import type { OsDerived } from './linux';
import { seriesKey } from './series-key';
import type { Labels, ServiceState } from './types';

/** Volumes without a drive letter (recovery, EFI): left out of diskUsage like panel 23 does. */
export const WINDOWS_UNLETTERED_VOLUMES = 'HarddiskVolume.+';
const unlettered = new RegExp(`^(${WINDOWS_UNLETTERED_VOLUMES})$`);

export const WINDOWS_NAMES = {
  memoryTotal: ['windows_memory_physical_total_bytes', 'windows_cs_physical_memory_bytes', 'windows_os_visible_memory_bytes'],
  memoryFree: ['windows_memory_physical_free_bytes', 'windows_os_physical_memory_free_bytes', 'windows_memory_available_bytes'],
  pagingLimit: ['windows_pagefile_limit_bytes', 'windows_os_paging_limit_bytes'],
  pagingFree: ['windows_pagefile_free_bytes', 'windows_os_paging_free_bytes'],
  logicalProcessors: ['windows_cpu_logical_processor', 'windows_cs_logical_processors'],
  clock: ['windows_os_time', 'windows_time_current_timestamp_seconds'],
  bootTime: ['windows_system_boot_time_timestamp', 'windows_system_boot_time_timestamp_seconds', 'windows_system_system_up_time'],
  processes: ['windows_os_processes', 'windows_system_processes'],
  processThreads: ['windows_process_threads', 'windows_process_thread_count'],
} as const;

const BAD_PACKETS: [kind: string, names: string[]][] = [
  ['outbound_discarded', ['windows_net_packets_outbound_discarded_total', 'windows_net_packets_outbound_discarded']],
  ['outbound_errors', ['windows_net_packets_outbound_errors_total', 'windows_net_packets_outbound_errors']],
  ['received_discarded', ['windows_net_packets_received_discarded_total', 'windows_net_packets_received_discarded']],
  ['received_errors', ['windows_net_packets_received_errors_total', 'windows_net_packets_received_errors']],
];

export function deriveWindows(ctx: DeriveContext): OsDerived {
  const cpu = cpuFigures(ctx);
  const memory = memoryFigures(ctx);
  const diskUsage = diskFigures(ctx);
  const networkUsage = networkFigures(ctx);

  const now = ctx.gauge(...WINDOWS_NAMES.clock) ?? ctx.atMs / 1000;
  const idleProcess = ctx.samples('windows_process_start_time').find((s) => s.labels['process'] === 'Idle');
  const boot = ctx.gauge(...WINDOWS_NAMES.bootTime) ?? idleProcess?.value ?? null;
  const uptime = boot === null ? null : now - boot;
  ctx.set('uptime_seconds', uptime);

  ctx.set('ntp_offset_seconds', ctx.gauge('windows_time_computed_time_offset_seconds'));
  ctx.set('system_threads', ctx.gauge('windows_system_threads') ?? ctx.sumGauge([...WINDOWS_NAMES.processThreads]));
  ctx.set('processes', ctx.gauge(...WINDOWS_NAMES.processes));

  const { services, exposed } = windowsServices(ctx);
  return {
    usage: {
      cpuUsage: cpu.usage,
      memoryUsage: memory.usage,
      diskUsage,
      networkUsage,
      swapUsage: memory.swapUsage,
      uptime,
      // Windows keeps no load average; processor queue length is an instant count, not the same figure.
      cpuLoad1: null,
      cpuLoad5: null,
      cpuLoad15: null,
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
  const rates = ctx.rates('windows_cpu_time_total');
  const counted = new Set(rates.map((r) => r.labels['core'])).size;
  const cores = ctx.gauge(...WINDOWS_NAMES.logicalProcessors) ?? (counted > 0 ? counted : null);
  ctx.set('cpu_cores', cores);

  const idle = rates.filter((r) => r.labels['mode'] === 'idle');
  const idleSum = sumRates(idle);
  const usage = idleSum === null ? null : Math.min(100, Math.max(0, 100 * (1 - idleSum / idle.length)));
  ctx.set('cpu_busy_pct', usage);
  for (const [mode, sum] of sumRatesBy(rates, (l) => l['mode'] ?? null)) {
    ctx.set(seriesKey('cpu_mode_cores', { mode }), sum);
    // Panel 25 divides by the cores the counter reports (the public dashboard hard-codes 16).
    ctx.set(seriesKey('cpu_share', { mode }), sum === null || counted === 0 ? null : sum / counted);
  }
  return { cores, usage };
}

function memoryFigures(ctx: DeriveContext) {
  const total = ctx.gauge(...WINDOWS_NAMES.memoryTotal);
  const free = ctx.gauge(...WINDOWS_NAMES.memoryFree);
  const usage = percent(all(total, free) && total! - free!, total);
  const pagingLimit = ctx.sumGauge([...WINDOWS_NAMES.pagingLimit]);
  const pagingFree = ctx.sumGauge([...WINDOWS_NAMES.pagingFree]);
  const swapUsage = percent(all(pagingLimit, pagingFree) && pagingLimit! - pagingFree!, pagingLimit);
  ctx.set('mem_total_bytes', total);
  ctx.set('mem_used_pct', usage);
  ctx.set('swap_total_bytes', pagingLimit);
  ctx.set('swap_used_pct', swapUsage);

  const commitLimit = ctx.gauge('windows_memory_commit_limit');
  const committed = ctx.gauge('windows_memory_committed_bytes');
  ctx.set('mem_details_bytes{kind="physical_total"}', total);
  ctx.set('mem_details_bytes{kind="physical_free"}', free);
  ctx.set('mem_details_bytes{kind="virtual_total"}', ctx.gauge('windows_os_virtual_memory_bytes') ?? commitLimit);
  ctx.set(
    'mem_details_bytes{kind="virtual_free"}',
    ctx.gauge('windows_os_virtual_memory_free_bytes') ?? (all(commitLimit, committed) && commitLimit! - committed!),
  );

  // Memory saturation: Memory\Pages/sec, pages read from or written to disk to resolve hard
  // faults. It includes memory-mapped file reads, so it runs higher than Linux's swap in/out.
  const saturation = ctx.counterRate('windows_memory_swap_page_operations_total');
  ctx.set('mem_swap_pages', saturation);
  return { total, usage, swapTotal: pagingLimit, swapUsage, saturation };
}

/** Panels 23, 40, 15, 8, 9; returns diskUsage, percent used over the lettered volumes. */
function diskFigures(ctx: DeriveContext): number | null {
  const freeByVolume = new Map(ctx.samples('windows_logical_disk_free_bytes').map((s) => [s.labels['volume'], s.value]));
  let size = 0;
  let free = 0;
  let lettered = 0;
  for (const s of ctx.samples('windows_logical_disk_size_bytes')) {
    const volume = s.labels['volume'];
    const volumeFree = freeByVolume.get(volume);
    if (volume === undefined || volumeFree === undefined) continue;
    ctx.set(seriesKey('volume_used_pct', { volume }), s.value > 0 ? 100 - (volumeFree / s.value) * 100 : null);
    if (unlettered.test(volume)) continue;
    ctx.set(seriesKey('volume_free_bytes', { volume }), volumeFree);
    size += s.value;
    free += volumeFree;
    lettered++;
  }
  const used = lettered > 0 ? percent(size - free, size) : null;
  ctx.set('disk_used_pct', used);

  const each = (metric: string, key: string) => {
    for (const r of ctx.rates(metric)) ctx.set(seriesKey(key, { volume: r.labels['volume'] ?? '' }), r.rate);
  };
  each('windows_logical_disk_read_bytes_total', 'disk_read_bytes');
  each('windows_logical_disk_write_bytes_total', 'disk_write_bytes');
  each('windows_logical_disk_split_ios_total', 'disk_split_ios');
  return used;
}

/** Panels 17, 11, 29, 10; returns networkUsage, bytes/s received + sent over every NIC. */
function networkFigures(ctx: DeriveContext): number | null {
  const nic = (l: Labels) => l['nic'] ?? '';
  const received = ctx.rates('windows_net_bytes_received_total');
  const sent = ctx.rates('windows_net_bytes_sent_total');
  for (const r of received) ctx.set(seriesKey('net_received_bytes', { nic: nic(r.labels) }), r.rate);
  for (const r of sent) ctx.set(seriesKey('net_sent_bytes', { nic: nic(r.labels) }), r.rate);
  const receivedSum = sumRates(received);
  const sentSum = sumRates(sent);
  // Flow per hour at the current rate; averaged over an hour this is the hour's increase().
  ctx.set('net_flow_bytes_per_hour{direction="received"}', receivedSum === null ? null : receivedSum * 3600);
  ctx.set('net_flow_bytes_per_hour{direction="sent"}', sentSum === null ? null : sentSum * 3600);

  const total = ctx.rates('windows_net_bytes_total');
  const usage = total.length > 0 ? sumRates(total) : all(receivedSum, sentSum) && receivedSum! + sentSum!;
  ctx.set('net_total_bits', usage === null ? null : usage * 8);

  for (const [kind, names] of BAD_PACKETS) {
    for (const r of ctx.rates(names)) ctx.set(seriesKey('net_bad_packets', { kind, nic: nic(r.labels) }), r.rate);
  }
  return usage;
}

/** Start modes in which Windows starts a service by itself: stopped, such a service is down. */
const STARTS_BY_ITSELF = new Set(['auto', 'boot', 'system']);

/**
 * windows_service_state: one row per service and state, the row at 1 is the state. running →
 * up; stopped → down when Windows is meant to run the service (start mode auto, boot or
 * system, or no start mode exported), else "stopped" as it is: a stopped manual or disabled
 * service is the normal case for most of a Windows host's ~250 services, not an outage.
 */
function windowsServices(ctx: DeriveContext): { services: ServiceState[]; exposed: boolean } {
  const rows = ctx.samples('windows_service_state');
  const states = new Map<string, string>();
  const byState = new Map<string, number>();
  for (const { labels, value } of rows) {
    const name = labels['name'];
    const state = labels['state'];
    if (name === undefined || state === undefined) continue;
    if (!states.has(name)) states.set(name, 'unknown');
    if (value === 1) states.set(name, state);
    byState.set(state, (byState.get(state) ?? 0) + (Number.isFinite(value) ? value : 0));
  }
  for (const [state, count] of byState) ctx.set(seriesKey('services_by_state', { state }), count);
  const startModes = new Map<string, string>();
  for (const { labels, value } of ctx.samples('windows_service_start_mode')) {
    if (value === 1 && labels['name'] !== undefined && labels['start_mode'] !== undefined) startModes.set(labels['name'], labels['start_mode']);
  }
  const services = [...states].map(([name, state]) => {
    const mode = startModes.get(name);
    const status = state === 'running' ? 'up' : state === 'stopped' && (mode === undefined || STARTS_BY_ITSELF.has(mode)) ? 'down' : state;
    return { name, status };
  });
  return { services, exposed: rows.length > 0 };
}
