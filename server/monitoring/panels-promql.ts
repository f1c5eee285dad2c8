/**
 * Every chart panel of shared/PANELS.md as PromQL, for Prometheus mode: per panel the queries
 * that make its lines, in the order and with the legends of panels.ts, so a chart has the same
 * lines whichever mode draws it. Definitions follow linux.ts / windows.ts where they refine the
 * dashboards (root filesystem, whole disks, fallbacks across windows_exporter versions).
 *
 * `{I}` stands for the instance matcher (`{I}` or `{I,mode="idle"}`), `[R]` for the rate
 * window; prometheus-charts.ts fills both in. Counters use irate like the dashboards' busy
 * panels, which is also what the built-in store keeps (the rate between two scrapes). Each
 * query aggregates by its legend's labels, so a host two jobs scrape draws each line once.
 */
import { LINUX_DISK_DEVICES } from './linux';
import type { Os } from './types';
import { promqlString } from './usage-promql';
import { WINDOWS_NAMES, WINDOWS_UNLETTERED_VOLUMES } from './windows';

export interface PanelQuery {
  expr: string;
  /** Legend; `{{label}}` is the series' label value (panels.ts renderLegend). */
  legend: string;
}

const q = (expr: string, legend: string): PanelQuery => ({ expr, legend });
const sel = (metric: string, matchers?: string) => `${metric}{I${matchers ? `,${matchers}` : ''}}`;
/** A label-less gauge: one line whatever jobs scrape the host. */
const one = (metric: string, matchers?: string) => `max(${sel(metric, matchers)})`;
const irate = (metric: string, matchers?: string) => `irate(${sel(metric, matchers)}[R])`;
const firstOf = (names: readonly string[]) => `(${names.map((n) => one(n)).join(' or ')})`;

// ---- Linux (node_exporter, dashboard 1860) ----

const NCPU = 'count(count by (cpu) (node_cpu_seconds_total{I}))';
const mem = (field: string) => one(`node_memory_${field}_bytes`);
const cpuShare = (modes: string) => `sum(${irate('node_cpu_seconds_total', modes)}) / scalar(${NCPU})`;
/** Real filesystems only, as linux.ts: the initramfs rootfs entry is not the root. */
const FS = 'device!="rootfs",fstype!="rootfs"';
const ROOT_FS = `mountpoint="/",${FS}`;
const fsUsedPct = (matchers: string) =>
  `100 - 100 * ${sel('node_filesystem_avail_bytes', matchers)} / (${sel('node_filesystem_size_bytes', matchers)} > 0)`;
const byMount = (expr: string) => `max by (mountpoint) (${expr})`;
const WHOLE_DISKS = `device=~${promqlString(LINUX_DISK_DEVICES)}`;
const perDevice = (metric: string, matchers?: string) => `max by (device) (${irate(metric, matchers)})`;

const linux: Record<number, PanelQuery[]> = {
  14: [q(NCPU, 'CPU Cores')],
  19: [q(`scalar(${one('node_load15')}) * 100 / ${NCPU}`, 'Sys Load (15m avg)')],
  20: [q(`clamp(100 * (1 - avg(${irate('node_cpu_seconds_total', 'mode="idle"')})), 0, 100)`, 'CPU Busy')],
  77: [
    q(cpuShare('mode="system"'), 'Busy System'),
    q(cpuShare('mode="user"'), 'Busy User'),
    q(cpuShare('mode="iowait"'), 'Busy Iowait'),
    q(cpuShare('mode=~"irq|softirq"'), 'Busy IRQs'),
    q(cpuShare('mode!~"system|user|iowait|irq|softirq|idle"'), 'Busy Other'),
    q(cpuShare('mode="idle"'), 'Idle'),
  ],
  75: [q(mem('MemTotal'), 'RAM Total')],
  16: [q(`100 * (1 - ${mem('MemAvailable')} / ${mem('MemTotal')})`, 'RAM Used')],
  18: [q(mem('SwapTotal'), 'SWAP Total')],
  24: [
    q(
      `${mem('MemTotal')} - ${mem('MemFree')} - ${mem('Buffers')} - ${mem('Cached')} - ${mem('Slab')} - ${mem('PageTables')} - ${mem('SwapCached')}`,
      'Apps',
    ),
    q(mem('PageTables'), 'PageTables'),
    q(mem('SwapCached'), 'SwapCache'),
    q(mem('Slab'), 'Slab'),
    q(mem('Cached'), 'Cache'),
    q(mem('Buffers'), 'Buffers'),
    q(mem('MemFree'), 'Unused'),
    q(`${mem('SwapTotal')} - ${mem('SwapFree')}`, 'Swap'),
  ],
  78: [
    q(mem('MemTotal'), 'RAM Total'),
    q(`${mem('MemTotal')} - ${mem('MemFree')} - (${mem('Cached')} + ${mem('Buffers')} + ${mem('SReclaimable')})`, 'RAM Used'),
    q(`${mem('Cached')} + ${mem('Buffers')} + ${mem('SReclaimable')}`, 'RAM Cache + Buffer'),
    q(mem('MemFree'), 'RAM Free'),
    q(`${mem('SwapTotal')} - ${mem('SwapFree')}`, 'SWAP Used'),
  ],
  136: [q(mem('Active'), 'Active'), q(mem('Inactive'), 'Inactive')],
  176: [q(`max(${irate('node_vmstat_pgpgin')})`, 'Pagesin'), q(`max(${irate('node_vmstat_pgpgout')})`, 'Pagesout')],
  84: [
    q(`${perDevice('node_network_receive_bytes_total')} * 8`, '{{device}} - Receive'),
    q(`${perDevice('node_network_transmit_bytes_total')} * 8`, '{{device}} - Transmit'),
  ],
  74: [
    q(`${perDevice('node_network_receive_bytes_total')} * 8`, 'recv {{device}}'),
    q(`${perDevice('node_network_transmit_bytes_total')} * 8`, 'trans {{device}}'),
  ],
  115: [q(`max(${irate('node_netstat_Icmp_InMsgs')})`, 'InMsgs'), q(`max(${irate('node_netstat_Icmp_OutMsgs')})`, 'OutMsgs')],
  55: [q(`max(${irate('node_netstat_Udp_InDatagrams')})`, 'InDatagrams'), q(`max(${irate('node_netstat_Udp_OutDatagrams')})`, 'OutDatagrams')],
  85: [q(one('node_netstat_Tcp_CurrEstab'), 'CurrEstab'), q(one('node_netstat_Tcp_MaxConn'), 'MaxConn')],
  104: (
    [
      ['ListenOverflows', 'node_netstat_TcpExt_ListenOverflows'],
      ['ListenDrops', 'node_netstat_TcpExt_ListenDrops'],
      ['TCPSynRetrans', 'node_netstat_TcpExt_TCPSynRetrans'],
      ['RetransSegs', 'node_netstat_Tcp_RetransSegs'],
      ['InErrs', 'node_netstat_Tcp_InErrs'],
      ['OutRsts', 'node_netstat_Tcp_OutRsts'],
    ] as const
  ).map(([legend, metric]) => q(`max(${irate(metric)})`, legend)),
  154: [q(`max(${fsUsedPct(ROOT_FS)})`, 'Root FS Used')],
  23: [q(one('node_filesystem_size_bytes', ROOT_FS), 'RootFS Total')],
  152: [q(byMount(fsUsedPct(FS)), '{{mountpoint}}')],
  156: [q(byMount(`${sel('node_filesystem_size_bytes', FS)} - ${sel('node_filesystem_avail_bytes', FS)}`), '{{mountpoint}}')],
  229: [
    q(perDevice('node_disk_reads_completed_total', WHOLE_DISKS), '{{device}} - Reads completed'),
    q(perDevice('node_disk_writes_completed_total', WHOLE_DISKS), '{{device}} - Writes completed'),
  ],
  43: [
    q(byMount(sel('node_filesystem_avail_bytes', FS)), '{{mountpoint}} - Available'),
    q(byMount(sel('node_filesystem_free_bytes', FS)), '{{mountpoint}} - Free'),
    q(byMount(sel('node_filesystem_size_bytes', FS)), '{{mountpoint}} - Size'),
  ],
  42: [
    q(perDevice('node_disk_read_bytes_total', WHOLE_DISKS), '{{device}} - Read bytes'),
    q(perDevice('node_disk_written_bytes_total', WHOLE_DISKS), '{{device}} - Written bytes'),
  ],
};

// ---- Windows (windows_exporter, dashboard 14694) ----

const COUNTED_CORES = 'count(count by (core) (windows_cpu_time_total{I}))';
const winMemTotal = firstOf(WINDOWS_NAMES.memoryTotal);
const winMemFree = firstOf(WINDOWS_NAMES.memoryFree);
const LETTERED = `volume!~${promqlString(WINDOWS_UNLETTERED_VOLUMES)}`;
/** Lettered volumes that report both figures, summed (windows.ts diskFigures). */
const letteredSum = (metric: string, other: string) =>
  `sum(max by (volume) (${sel(metric, LETTERED)}) and on (volume) max by (volume) (${sel(other)}))`;
const winDiskSize = letteredSum('windows_logical_disk_size_bytes', 'windows_logical_disk_free_bytes');
const winDiskFree = letteredSum('windows_logical_disk_free_bytes', 'windows_logical_disk_size_bytes');
const perVolume = (metric: string) => `max by (volume) (${irate(metric)})`;
const perNic = (metric: string) => `max by (nic) (${irate(metric)})`;
const netTotal = `(sum(${perNic('windows_net_bytes_total')}) or (sum(${perNic('windows_net_bytes_received_total')}) + sum(${perNic('windows_net_bytes_sent_total')})))`;
const BAD_PACKETS: [kind: string, names: string[]][] = [
  ['outbound_discarded', ['windows_net_packets_outbound_discarded_total', 'windows_net_packets_outbound_discarded']],
  ['outbound_errors', ['windows_net_packets_outbound_errors_total', 'windows_net_packets_outbound_errors']],
  ['received_discarded', ['windows_net_packets_received_discarded_total', 'windows_net_packets_received_discarded']],
  ['received_errors', ['windows_net_packets_received_errors_total', 'windows_net_packets_received_errors']],
];

const windows: Record<number, PanelQuery[]> = {
  33: [
    q(
      `(${firstOf(WINDOWS_NAMES.clock)} or max(timestamp(up{I}))) - (${firstOf(WINDOWS_NAMES.bootTime)} or ${one('windows_process_start_time', 'process="Idle"')})`,
      'Uptime',
    ),
  ],
  19: [q(`clamp(100 * (1 - avg(${irate('windows_cpu_time_total', 'mode="idle"')})), 0, 100)`, 'CPU Usage')],
  4: [q(`sum by (mode) (${irate('windows_cpu_time_total')})`, '{{mode}}')],
  35: [q(`(${firstOf(WINDOWS_NAMES.logicalProcessors)} or ${COUNTED_CORES})`, 'Processors')],
  // Divided by the cores the counter reports (the public dashboard hard-codes 16).
  25: ['privileged', 'user', 'interrupt', 'dpc'].map((mode) =>
    q(`sum(${irate('windows_cpu_time_total', `mode="${mode}"`)}) / scalar(${COUNTED_CORES})`, mode),
  ),
  12: [q(`(${one('windows_system_threads')} or ${WINDOWS_NAMES.processThreads.map((n) => `sum(${sel(n)})`).join(' or ')})`, 'System threads')],
  27: [q(firstOf(WINDOWS_NAMES.processes), 'Processes')],
  7: [q(`sum by (state) (max by (name, state) (${sel('windows_service_state')}))`, '{{state}}')],
  37: [q(winMemTotal, 'RAM')],
  21: [q(`100 * (${winMemTotal} - ${winMemFree}) / (${winMemTotal} > 0)`, 'Memory Usage')],
  // Page operations per second, as the built-in figure (the dashboard shows the raw counter).
  39: [q(`max(${irate('windows_memory_swap_page_operations_total')})`, 'Swap page operations')],
  14: [
    q(winMemTotal, 'Physical memory'),
    q(winMemFree, 'Free physical memory'),
    q(`(${one('windows_os_virtual_memory_bytes')} or ${one('windows_memory_commit_limit')})`, 'Virtual memory'),
    q(
      `(${one('windows_os_virtual_memory_free_bytes')} or (${one('windows_memory_commit_limit')} - ${one('windows_memory_committed_bytes')}))`,
      'Free virtual memory',
    ),
  ],
  23: [q(`100 * (${winDiskSize} - ${winDiskFree}) / (${winDiskSize} > 0)`, 'Disk Usage')],
  40: [
    q(
      `max by (volume) (100 - 100 * ${sel('windows_logical_disk_free_bytes')} / (${sel('windows_logical_disk_size_bytes')} > 0))`,
      '{{volume}}',
    ),
  ],
  15: [
    q(
      `max by (volume) (${sel('windows_logical_disk_free_bytes', LETTERED)}) and on (volume) max by (volume) (${sel('windows_logical_disk_size_bytes')})`,
      '{{volume}}',
    ),
  ],
  8: [
    q(perVolume('windows_logical_disk_write_bytes_total'), '{{volume}} write'),
    q(`-${perVolume('windows_logical_disk_read_bytes_total')}`, '{{volume}} read'),
  ],
  9: [q(perVolume('windows_logical_disk_split_ios_total'), '{{volume}}')],
  17: [q(`${netTotal} * 8`, 'Bandwidth')],
  42: [q(one('windows_time_computed_time_offset_seconds'), 'NTP offset')],
  11: [
    q(perNic('windows_net_bytes_sent_total'), '{{nic}} sent'),
    q(`-${perNic('windows_net_bytes_received_total')}`, '{{nic}} received'),
  ],
  // The hour's increase, as the dashboard (the built-in store estimates it from the current rate).
  29: [
    q(`sum(max by (nic) (increase(${sel('windows_net_bytes_received_total')}[1h])))`, 'Received'),
    q(`sum(max by (nic) (increase(${sel('windows_net_bytes_sent_total')}[1h])))`, 'Sent'),
  ],
  // One query with a kind label, so lines sort by NIC then kind exactly like the built-in chart.
  10: [
    q(
      BAD_PACKETS.map(
        ([kind, names]) => `label_replace(max by (nic) (${names.map((n) => irate(n)).join(' or ')}), "kind", ${promqlString(kind)}, "", "")`,
      ).join(' or '),
      '{{nic}} {{kind}}',
    ),
  ],
};

export const promqlPanels: Record<Os, Record<number, PanelQuery[]>> = { linux, windows };
