/**
 * The usage figures of SPEC §7 (docs/metrics.md) as PromQL over the whole fleet, one series per
 * `instance`: the same definitions linux.ts and windows.ts compute from a scrape, for Prometheus
 * mode. Counters use irate, the rate between the last two samples, which is what the built-in
 * collector computes between two scrapes.
 *
 * Every gauge is read through `max by (instance, <identity>)` before anything is summed, so a
 * host that two Prometheus jobs scrape counts once, and binary operators match on `instance`
 * alone whatever other target labels there are.
 */
import { LINUX_VIRTUAL_NET_DEVICES } from './linux';
import type { Os, Usage } from './types';
import { WINDOWS_NAMES, WINDOWS_UNLETTERED_VOLUMES } from './windows';

/** A PromQL string literal (PromQL reads Go's escapes, which JSON's are a subset of here). */
export const promqlString = (s: string) => JSON.stringify(s);

/** The label a fleet query tags each figure with, so one query returns every field. */
export const FIELD_LABEL = 'opsdeck_field';

const selector = (metric: string, matchers?: string) => (matchers ? `${metric}{${matchers}}` : metric);
/** One value per instance of a gauge without identifying labels. */
const gauge = (metric: string, matchers?: string) => `max by (instance) (${selector(metric, matchers)})`;
/** The first of `names` each instance has: the exporter versions' names in windows.ts's order. */
const firstGauge = (names: readonly string[]) => `(${names.map((n) => gauge(n)).join(' or ')})`;
/** Sum per instance of a gauge over its identity labels (first of `names` present). */
const sumGauge = (names: readonly string[], identity: string) =>
  `(${names.map((n) => `sum by (instance) (max by (instance, ${identity}) (${n}))`).join(' or ')})`;
const irate = (metric: string, window: string, matchers?: string) => `irate(${selector(metric, matchers)}[${window}])`;
/** Sum per instance of a counter's rates over its identity labels. */
const sumRate = (metric: string, window: string, identity: string, matchers?: string) =>
  `sum by (instance) (max by (instance, ${identity}) (${irate(metric, window, matchers)}))`;
/** 100 · part / whole, absent where whole ≤ 0 (derive-context's percent()). */
const percent = (part: string, whole: string) => `100 * (${part}) / (${whole} > 0)`;
/** Panel 20 / 19: 100 · (1 − the average over CPUs of the idle rate), clamped like linux.ts. */
const cpuBusy = (metric: string, window: string) => `clamp(100 * (1 - avg by (instance) (${irate(metric, window, 'mode="idle"')})), 0, 100)`;

export type UsageExprs = { [K in keyof Usage]: string | null };

/** node_exporter. `window` is the irate range: long enough to hold two scrapes (usageRateWindow). */
export function linuxUsagePromql(window: string): UsageExprs {
  const mem = (field: string) => gauge(`node_memory_${field}_bytes`);
  const rootFs = `mountpoint="/",device!="rootfs",fstype!="rootfs"`;
  const physical = `device!~${promqlString(LINUX_VIRTUAL_NET_DEVICES)}`;
  return {
    cpuUsage: cpuBusy('node_cpu_seconds_total', window),
    memoryUsage: percent(`${mem('MemTotal')} - ${mem('MemAvailable')}`, mem('MemTotal')),
    // The root filesystem, per filesystem first so avail and size come from the same one.
    diskUsage: `max by (instance) (100 - 100 * node_filesystem_avail_bytes{${rootFs}} / (node_filesystem_size_bytes{${rootFs}} > 0))`,
    // Physical interfaces, both directions; 0 (not absent) for a host with only virtual ones.
    networkUsage:
      `(${sumRate('node_network_receive_bytes_total', window, 'device', physical)}` +
      ` + ${sumRate('node_network_transmit_bytes_total', window, 'device', physical)})` +
      ` or sum by (instance) (0 * ${irate('node_network_receive_bytes_total', window)})`,
    swapUsage: percent(`${mem('SwapTotal')} - ${mem('SwapFree')}`, mem('SwapTotal')),
    uptime: `${gauge('node_time_seconds')} - ${gauge('node_boot_time_seconds')}`,
    cpuLoad1: gauge('node_load1'),
    cpuLoad5: gauge('node_load5'),
    cpuLoad15: gauge('node_load15'),
    cpuCores: 'count by (instance) (count by (instance, cpu) (node_cpu_seconds_total))',
    memorySaturation: `max by (instance) (${irate('node_vmstat_pswpin', window)}) + max by (instance) (${irate('node_vmstat_pswpout', window)})`,
    memoryTotal: mem('MemTotal'),
    swapTotal: mem('SwapTotal'),
  };
}

/** windows_exporter, reading each figure's newest metric name first like windows.ts. */
export function windowsUsagePromql(window: string): UsageExprs {
  const total = firstGauge(WINDOWS_NAMES.memoryTotal);
  const free = firstGauge(WINDOWS_NAMES.memoryFree);
  const pagingLimit = sumGauge(WINDOWS_NAMES.pagingLimit, 'file');
  const pagingFree = sumGauge(WINDOWS_NAMES.pagingFree, 'file');
  // Lettered volumes that report both size and free space.
  const lettered = `volume!~${promqlString(WINDOWS_UNLETTERED_VOLUMES)}`;
  const volumes = (metric: string, other: string) =>
    `sum by (instance) (max by (instance, volume) (${metric}{${lettered}}) and on (instance, volume) max by (instance, volume) (${other}))`;
  const diskSize = volumes('windows_logical_disk_size_bytes', 'windows_logical_disk_free_bytes');
  const diskFree = volumes('windows_logical_disk_free_bytes', 'windows_logical_disk_size_bytes');
  // The exporter's clock, else the scrape's time; boot time, else the Idle process's start.
  const now = `(${firstGauge(WINDOWS_NAMES.clock)} or max by (instance) (timestamp(up)))`;
  const boot = `(${firstGauge(WINDOWS_NAMES.bootTime)} or ${gauge('windows_process_start_time', 'process="Idle"')})`;
  return {
    cpuUsage: cpuBusy('windows_cpu_time_total', window),
    memoryUsage: percent(`${total} - ${free}`, total),
    diskUsage: percent(`${diskSize} - ${diskFree}`, diskSize),
    networkUsage:
      `${sumRate('windows_net_bytes_total', window, 'nic')}` +
      ` or (${sumRate('windows_net_bytes_received_total', window, 'nic')} + ${sumRate('windows_net_bytes_sent_total', window, 'nic')})`,
    swapUsage: percent(`${pagingLimit} - ${pagingFree}`, pagingLimit),
    uptime: `${now} - ${boot}`,
    // Windows keeps no load average (windows.ts).
    cpuLoad1: null,
    cpuLoad5: null,
    cpuLoad15: null,
    cpuCores: `(${firstGauge(WINDOWS_NAMES.logicalProcessors)} or count by (instance) (count by (instance, core) (windows_cpu_time_total)))`,
    memorySaturation: `max by (instance) (${irate('windows_memory_swap_page_operations_total', window)})`,
    memoryTotal: total,
    swapTotal: pagingLimit,
  };
}

/** Tag each expression's series with its name and join them: one query for many figures. */
export function tagged(exprs: Record<string, string | null>): string {
  return Object.entries(exprs)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([field, expr]) => `label_replace(${expr}, ${promqlString(FIELD_LABEL)}, ${promqlString(field)}, "", "")`)
    .join('\nor ');
}

/** Every usage figure of every instance of one OS, in one query. */
export function fleetUsageQuery(os: Os, window: string): string {
  return tagged(os === 'windows' ? windowsUsagePromql(window) : linuxUsagePromql(window));
}

/** Whether each instance's last scrape worked, and when it was. */
export const FLEET_STATE_QUERY = tagged({ up: 'max by (instance) (up)', scrapedAt: 'max by (instance) (timestamp(up))' });

/**
 * Service states: the row at 1 of each service (its state), plus one row per service without a
 * state label so a service none of whose rows is 1 is still listed, as in a scrape.
 */
export function fleetServicesQuery(os: Os): string {
  const rows = os === 'windows' ? 'windows_service_state' : `node_systemd_unit_state{name=~${promqlString('.+\\.service')}}`;
  const states = `max by (instance, name, state) (${rows} == 1) or 0 * max by (instance, name) (${rows})`;
  if (os === 'linux') return states;
  // Windows: also each service's start mode (tagged), so a stopped manual service is `stopped`, not down.
  return `${states} or label_replace(max by (instance, name, start_mode) (windows_service_start_mode == 1), "opsdeck_kind", "start_mode", "", "")`;
}

/** The metric whose rows fleetServicesQuery returns, to hand them to linux.ts / windows.ts. */
export const SERVICE_METRIC: Record<Os, string> = { linux: 'node_systemd_unit_state', windows: 'windows_service_state' };

/**
 * The irate range for usage: it only bounds how old the last two samples may be, so it is
 * generous (Prometheus may scrape less often than Opsdeck reads).
 */
export function usageRateWindow(intervalS: number): string {
  return `${Math.max(300, Math.ceil(4 * intervalS))}s`;
}
