/**
 * The seams of the monitoring pipeline. Exporter text is parsed (exposition.ts), then turned
 * into a server's usage figures, chart series and service states (linux.ts / windows.ts via
 * derive.ts), then stored (metric-store.ts) and read back per chart panel (panels.ts).
 */

export type Os = 'linux' | 'windows';
export type Labels = Readonly<Record<string, string>>;

/** One sample line of the Prometheus text exposition format. */
export interface Sample {
  labels: Labels;
  value: number;
}

/** A parsed scrape: samples grouped by metric name (with _total etc. kept as written). */
export type Scrape = Map<string, Sample[]>;

/** SPEC §7 servers/metrics/usage, the figures a scrape produces (null: not known yet / not exposed). */
export interface Usage {
  cpuUsage: number | null;
  memoryUsage: number | null;
  diskUsage: number | null;
  networkUsage: number | null;
  swapUsage: number | null;
  uptime: number | null;
  cpuLoad1: number | null;
  cpuLoad5: number | null;
  cpuLoad15: number | null;
  cpuCores: number | null;
  memorySaturation: number | null;
  memoryTotal: number | null;
  swapTotal: number | null;
}

export const usageFields = [
  'cpuUsage',
  'memoryUsage',
  'diskUsage',
  'networkUsage',
  'swapUsage',
  'uptime',
  'cpuLoad1',
  'cpuLoad5',
  'cpuLoad15',
  'cpuCores',
  'memorySaturation',
  'memoryTotal',
  'swapTotal',
] as const satisfies readonly (keyof Usage)[];

/** SPEC §3 Service record status: up, down or the exporter's own word for anything else. */
export interface ServiceState {
  name: string;
  status: string;
}

/** Counter values of the previous scrape, so the next one can compute rates. Opaque to callers. */
export interface CounterMemory {
  at: number;
  counters: Map<string, number>;
}

export interface Derived {
  usage: Usage;
  /**
   * Chart series values at this instant, keyed `name` or `name{label="value"}` (labels sorted),
   * e.g. `cpu_share{mode="user"}` or `net_rx_bits{device="eth0"}`. Rates are per second between
   * this scrape and the previous one; absent on the first scrape or after a counter reset.
   */
  series: Record<string, number>;
  services: ServiceState[];
  /** False when the exporter has no service collector (systemd / service off): services are left as they are. */
  servicesExposed: boolean;
}
