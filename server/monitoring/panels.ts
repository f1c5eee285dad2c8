/**
 * The chart panels of shared/PANELS.md as the built-in store draws them: for each panel id its
 * title, kind, unit and which stored series (linux.ts / windows.ts keys) make its lines, with
 * the legends of the Grafana dashboards they come from. Prometheus mode draws the same panels
 * from panels-promql.ts.
 */
import type { Os } from './types';
import { parseSeriesKey } from './series-key';

export type PanelKind = 'stat' | 'gauge' | 'timeseries' | 'bargauge';

/** Units the web app formats: percent (0–100), percentunit (0–1), bytes, bytes/s, bits/s, seconds, short, ops/s, packets/s, pages/s, cores (CPU seconds per second). */
export type PanelUnit = 'percent' | 'percentunit' | 'bytes' | 'bytes/s' | 'bits/s' | 'seconds' | 'short' | 'ops/s' | 'packets/s' | 'pages/s' | 'cores';

export interface SeriesPick {
  /** Stored series name (the part of the key before `{`). */
  name: string;
  /** Labels the key must carry with exactly these values. */
  match?: Record<string, string>;
  /** Legend; `{{label}}` is replaced by the key's label value. */
  legend: string;
  /** Multiply values (e.g. -1 for the mirrored half of a read/write chart). */
  scale?: number;
}

export interface PanelDef {
  id: number;
  title: string;
  kind: PanelKind;
  unit: PanelUnit;
  series: SeriesPick[];
}

const s = (name: string, legend: string, match?: Record<string, string>, scale?: number): SeriesPick => ({
  name,
  legend,
  ...(match ? { match } : {}),
  ...(scale !== undefined ? { scale } : {}),
});
const panel = (id: number, title: string, kind: PanelKind, unit: PanelUnit, ...series: SeriesPick[]): PanelDef => ({ id, title, kind, unit, series });

/** Node Exporter Full (Grafana 1860). */
const linux: PanelDef[] = [
  panel(14, 'CPU Cores', 'stat', 'short', s('cpu_cores', 'CPU Cores')),
  panel(19, 'Sys Load (15m avg)', 'gauge', 'percent', s('load15_pct', 'Sys Load (15m avg)')),
  panel(20, 'CPU Busy', 'gauge', 'percent', s('cpu_busy_pct', 'CPU Busy')),
  panel(
    77,
    'CPU Basic',
    'timeseries',
    'percentunit',
    s('cpu_share', 'Busy System', { mode: 'system' }),
    s('cpu_share', 'Busy User', { mode: 'user' }),
    s('cpu_share', 'Busy Iowait', { mode: 'iowait' }),
    s('cpu_share', 'Busy IRQs', { mode: 'irq' }),
    s('cpu_share', 'Busy Other', { mode: 'other' }),
    s('cpu_share', 'Idle', { mode: 'idle' }),
  ),
  panel(75, 'RAM Total', 'stat', 'bytes', s('mem_total_bytes', 'RAM Total')),
  panel(16, 'RAM Used', 'gauge', 'percent', s('mem_used_pct', 'RAM Used')),
  panel(18, 'SWAP Total', 'stat', 'bytes', s('swap_total_bytes', 'SWAP Total')),
  panel(
    24,
    'Memory Stack',
    'timeseries',
    'bytes',
    s('mem_stack_bytes', 'Apps', { part: 'apps' }),
    s('mem_stack_bytes', 'PageTables', { part: 'page_tables' }),
    s('mem_stack_bytes', 'SwapCache', { part: 'swap_cache' }),
    s('mem_stack_bytes', 'Slab', { part: 'slab' }),
    s('mem_stack_bytes', 'Cache', { part: 'cache' }),
    s('mem_stack_bytes', 'Buffers', { part: 'buffers' }),
    s('mem_stack_bytes', 'Unused', { part: 'unused' }),
    s('mem_stack_bytes', 'Swap', { part: 'swap' }),
  ),
  panel(
    78,
    'Memory Basic',
    'timeseries',
    'bytes',
    s('mem_basic_bytes', 'RAM Total', { kind: 'total' }),
    s('mem_basic_bytes', 'RAM Used', { kind: 'used' }),
    s('mem_basic_bytes', 'RAM Cache + Buffer', { kind: 'cache_buffer' }),
    s('mem_basic_bytes', 'RAM Free', { kind: 'free' }),
    s('mem_basic_bytes', 'SWAP Used', { kind: 'swap_used' }),
  ),
  panel(136, 'Memory Active / Inactive', 'timeseries', 'bytes', s('mem_active_bytes', 'Active'), s('mem_inactive_bytes', 'Inactive')),
  panel(176, 'Memory Pages In / Out', 'timeseries', 'pages/s', s('mem_pages_in', 'Pagesin'), s('mem_pages_out', 'Pagesout')),
  panel(84, 'Network Traffic', 'timeseries', 'bits/s', s('net_rx_bits', '{{device}} - Receive'), s('net_tx_bits', '{{device}} - Transmit')),
  panel(74, 'Network Traffic Basic', 'timeseries', 'bits/s', s('net_rx_bits', 'recv {{device}}'), s('net_tx_bits', 'trans {{device}}')),
  panel(115, 'ICMP In / Out', 'timeseries', 'packets/s', s('icmp_in_msgs', 'InMsgs'), s('icmp_out_msgs', 'OutMsgs')),
  panel(55, 'UDP In / Out', 'timeseries', 'packets/s', s('udp_in_datagrams', 'InDatagrams'), s('udp_out_datagrams', 'OutDatagrams')),
  panel(85, 'TCP Connections', 'timeseries', 'short', s('tcp_curr_estab', 'CurrEstab'), s('tcp_max_conn', 'MaxConn')),
  panel(
    104,
    'TCP Errors',
    'timeseries',
    'packets/s',
    ...['ListenOverflows', 'ListenDrops', 'TCPSynRetrans', 'RetransSegs', 'InErrs', 'OutRsts'].map((stat) => s('tcp_errors', stat, { stat })),
  ),
  panel(154, 'Root FS Used', 'gauge', 'percent', s('fs_used_pct', 'Root FS Used', { mountpoint: '/' })),
  panel(23, 'RootFS Total', 'stat', 'bytes', s('fs_size_bytes', 'RootFS Total', { mountpoint: '/' })),
  panel(152, 'Disk Space Used Basic', 'timeseries', 'percent', s('fs_used_pct', '{{mountpoint}}')),
  panel(156, 'Disk Space Used', 'timeseries', 'bytes', s('fs_used_bytes', '{{mountpoint}}')),
  panel(229, 'Disk IOps', 'timeseries', 'ops/s', s('disk_reads', '{{device}} - Reads completed'), s('disk_writes', '{{device}} - Writes completed')),
  panel(
    43,
    'Filesystem space available',
    'timeseries',
    'bytes',
    s('fs_avail_bytes', '{{mountpoint}} - Available'),
    s('fs_free_bytes', '{{mountpoint}} - Free'),
    s('fs_size_bytes', '{{mountpoint}} - Size'),
  ),
  panel(42, 'I/O Usage Read / Write', 'timeseries', 'bytes/s', s('disk_read_bytes', '{{device}} - Read bytes'), s('disk_written_bytes', '{{device}} - Written bytes')),
];

/** Windows Exporter Dashboard (Grafana 14694). */
const windows: PanelDef[] = [
  panel(33, 'Uptime', 'stat', 'seconds', s('uptime_seconds', 'Uptime')),
  panel(19, 'CPU Usage', 'gauge', 'percent', s('cpu_busy_pct', 'CPU Usage')),
  panel(4, 'CPU Load', 'timeseries', 'cores', s('cpu_mode_cores', '{{mode}}')),
  panel(35, 'Processors', 'stat', 'short', s('cpu_cores', 'Processors')),
  panel(
    25,
    'CPU Usage',
    'timeseries',
    'percentunit',
    ...['privileged', 'user', 'interrupt', 'dpc'].map((mode) => s('cpu_share', mode, { mode })),
  ),
  panel(12, 'System threads', 'timeseries', 'short', s('system_threads', 'System threads')),
  panel(27, 'Processes', 'timeseries', 'short', s('processes', 'Processes')),
  panel(7, 'Services by state', 'timeseries', 'short', s('services_by_state', '{{state}}')),
  panel(37, 'RAM', 'stat', 'bytes', s('mem_total_bytes', 'RAM')),
  panel(21, 'Memory Usage', 'gauge', 'percent', s('mem_used_pct', 'Memory Usage')),
  panel(39, 'Total SWAP', 'gauge', 'pages/s', s('mem_swap_pages', 'Swap page operations')),
  panel(
    14,
    'Memory Details',
    'timeseries',
    'bytes',
    s('mem_details_bytes', 'Physical memory', { kind: 'physical_total' }),
    s('mem_details_bytes', 'Free physical memory', { kind: 'physical_free' }),
    s('mem_details_bytes', 'Virtual memory', { kind: 'virtual_total' }),
    s('mem_details_bytes', 'Free virtual memory', { kind: 'virtual_free' }),
  ),
  panel(23, 'Disk Usage', 'gauge', 'percent', s('disk_used_pct', 'Disk Usage')),
  panel(40, 'Hard Disk Usage', 'bargauge', 'percent', s('volume_used_pct', '{{volume}}')),
  panel(15, 'Partitions Free Space', 'timeseries', 'bytes', s('volume_free_bytes', '{{volume}}')),
  panel(8, 'Disk R/W', 'timeseries', 'bytes/s', s('disk_write_bytes', '{{volume}} write'), s('disk_read_bytes', '{{volume}} read', undefined, -1)),
  panel(9, 'Disk I/O ops', 'timeseries', 'ops/s', s('disk_split_ios', '{{volume}}')),
  panel(17, 'Bandwidth', 'gauge', 'bits/s', s('net_total_bits', 'Bandwidth')),
  panel(42, 'NTP offset', 'timeseries', 'seconds', s('ntp_offset_seconds', 'NTP offset')),
  panel(11, 'Bandwidth', 'timeseries', 'bytes/s', s('net_sent_bytes', '{{nic}} sent'), s('net_received_bytes', '{{nic}} received', undefined, -1)),
  panel(
    29,
    'Flow per hour',
    'timeseries',
    'bytes',
    s('net_flow_bytes_per_hour', 'Received', { direction: 'received' }),
    s('net_flow_bytes_per_hour', 'Sent', { direction: 'sent' }),
  ),
  panel(10, 'Network discarded / error packets', 'timeseries', 'packets/s', s('net_bad_packets', '{{nic}} {{kind}}')),
];

const catalogue: Record<Os, Map<number, PanelDef>> = {
  linux: new Map(linux.map((p) => [p.id, p])),
  windows: new Map(windows.map((p) => [p.id, p])),
};

export function panelDef(os: Os, id: number): PanelDef | undefined {
  return catalogue[os].get(id);
}

export function panelIds(os: Os): number[] {
  return [...catalogue[os].keys()];
}

/** `{{label}}` → the label's value (empty when the series has no such label). */
export function renderLegend(template: string, labels: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => labels[name] ?? '');
}

export interface PickedSeries {
  key: string;
  label: string;
  scale: number;
}

/** The most lines one chart answer holds (issue 25 §6): past it the answer says how many there were. */
export const MAX_CHART_LINES = 100;

const legendOrder = new Intl.Collator('en', { numeric: true }).compare;

/**
 * The stored series keys that make a panel's lines, in the panel's order (each pick's keys
 * sorted by legend, so `sda` comes before `sdb`).
 */
export function pickSeries(def: PanelDef, keys: readonly string[]): PickedSeries[] {
  return pickSeriesBounded(def, keys, Infinity).picked;
}

/**
 * pickSeries with at most `max` lines: each of the panel's picks keeps at most its share
 * (max ÷ picks, so a receive/transmit chart keeps both halves), the first ones of the server's
 * layout (the order its series first appeared), then sorted by legend. `total` counts every line
 * there would be. Keys of other series are passed over by their name before being parsed, so a
 * server with hundreds of thousands of stored keys costs one pass over them, never a sort of all.
 */
export function pickSeriesBounded(def: PanelDef, keys: readonly string[], max: number): { picked: PickedSeries[]; total: number } {
  const share = Number.isFinite(max) ? Math.max(1, Math.floor(max / Math.max(1, def.series.length))) : Infinity;
  const out: PickedSeries[] = [];
  let total = 0;
  for (const pick of def.series) {
    const found: PickedSeries[] = [];
    for (const key of keys) {
      if (!key.startsWith(pick.name) || (key.length > pick.name.length && key[pick.name.length] !== '{')) continue;
      const p = parseSeriesKey(key);
      if (!p || p.name !== pick.name) continue;
      if (pick.match && Object.entries(pick.match).some(([k, v]) => p.labels[k] !== v)) continue;
      total++;
      if (found.length < share) found.push({ key, label: renderLegend(pick.legend, p.labels), scale: pick.scale ?? 1 });
    }
    found.sort((x, y) => legendOrder(x.label, y.label));
    out.push(...found);
  }
  return { picked: out, total };
}
