import type { ServerTab } from './server-view';

/**
 * The chart panels of each server-detail tab (SPEC §2, ids from shared/PANELS.md). Titles and
 * kinds here only size and label the placeholders while a panel loads and name Grafana
 * iframes; a built-in chart takes its title, kind and unit from the chart API.
 */

export type PanelKind = 'stat' | 'gauge' | 'timeseries' | 'bargauge';
export type ServerOs = 'linux' | 'windows';

export interface PanelInfo {
  id: number;
  title: string;
  kind: PanelKind;
  /** Panels whose many series need the tall height. */
  tall?: boolean;
}

const p = (id: number, title: string, kind: PanelKind, tall?: boolean): PanelInfo => ({ id, title, kind, ...(tall ? { tall } : {}) });

/** Node Exporter Full (Grafana 1860). */
const linuxPanels: PanelInfo[] = [
  p(14, 'CPU Cores', 'stat'),
  p(19, 'Sys Load (15m avg)', 'gauge'),
  p(20, 'CPU Busy', 'gauge'),
  p(77, 'CPU Basic', 'timeseries'),
  p(75, 'RAM Total', 'stat'),
  p(16, 'RAM Used', 'gauge'),
  p(18, 'SWAP Total', 'stat'),
  p(24, 'Memory Stack', 'timeseries', true),
  p(78, 'Memory Basic', 'timeseries'),
  p(136, 'Memory Active / Inactive', 'timeseries'),
  p(176, 'Memory Pages In / Out', 'timeseries'),
  p(84, 'Network Traffic', 'timeseries'),
  p(74, 'Network Traffic Basic', 'timeseries'),
  p(115, 'ICMP In / Out', 'timeseries'),
  p(55, 'UDP In / Out', 'timeseries'),
  p(85, 'TCP Connections', 'timeseries'),
  p(104, 'TCP Errors', 'timeseries', true),
  p(154, 'Root FS Used', 'gauge'),
  p(23, 'RootFS Total', 'stat'),
  p(152, 'Disk Space Used Basic', 'timeseries'),
  p(156, 'Disk Space Used', 'timeseries'),
  p(229, 'Disk IOps', 'timeseries'),
  p(43, 'Filesystem space available', 'timeseries'),
  p(42, 'I/O Usage Read / Write', 'timeseries'),
];

/** Windows Exporter Dashboard (Grafana 14694). */
const windowsPanels: PanelInfo[] = [
  p(33, 'Uptime', 'stat'),
  p(19, 'CPU Usage', 'gauge'),
  p(4, 'CPU Load', 'timeseries'),
  p(35, 'Processors', 'stat'),
  p(25, 'CPU Usage', 'timeseries'),
  p(12, 'System threads', 'timeseries'),
  p(27, 'Processes', 'timeseries'),
  p(7, 'Services by state', 'timeseries'),
  p(37, 'RAM', 'stat'),
  p(21, 'Memory Usage', 'gauge'),
  p(39, 'Total SWAP', 'gauge'),
  p(14, 'Memory Details', 'timeseries'),
  p(23, 'Disk Usage', 'gauge'),
  p(40, 'Hard Disk Usage', 'bargauge'),
  p(15, 'Partitions Free Space', 'timeseries'),
  p(8, 'Disk R/W', 'timeseries'),
  p(9, 'Disk I/O ops', 'timeseries'),
  p(17, 'Bandwidth', 'gauge'),
  p(42, 'NTP offset', 'timeseries'),
  p(11, 'Bandwidth', 'timeseries'),
  p(29, 'Flow per hour', 'timeseries'),
  p(10, 'Network discarded / error packets', 'timeseries'),
];

const byId = (list: PanelInfo[]) => new Map(list.map((x) => [x.id, x]));
const infos: Record<ServerOs, Map<number, PanelInfo>> = { linux: byId(linuxPanels), windows: byId(windowsPanels) };

/**
 * Panel ids per tab, in SPEC order. Decisions (docs/decisions.md): the Linux Disk tab lists 156
 * twice in SPEC and is drawn once; the Linux Overview shows the four "basic" time series (CPU,
 * memory, network, disk space), the history behind the Server Utilization gauges above the tabs.
 */
export const tabPanels: Record<ServerOs, Partial<Record<ServerTab, readonly number[]>>> = {
  linux: {
    overview: [77, 78, 74, 152],
    cpu: [14, 19, 20, 77],
    memory: [75, 16, 18, 24, 78, 136, 176],
    network: [84, 74, 115, 55, 85, 104],
    disk: [154, 23, 152, 156, 229, 43, 42],
  },
  windows: {
    cpu: [33, 19, 4, 35, 25, 12, 27, 7],
    memory: [37, 21, 39, 14],
    disk: [23, 40, 15, 8, 9],
    network: [17, 42, 11, 29, 10],
  },
};

export function panelsFor(os: ServerOs, tab: ServerTab): PanelInfo[] {
  return (tabPanels[os][tab] ?? []).map((id) => panelInfo(os, id));
}

export function panelInfo(os: ServerOs, id: number): PanelInfo {
  return infos[os].get(id) ?? { id, title: `Panel ${id}`, kind: 'timeseries' };
}

/** SPEC §2 heights 200/400/600: tiles (stat, gauge, bar gauge) 200, time series 400, many-series ones 600. */
export function panelHeight(kind: PanelKind, tall = false): 200 | 400 | 600 {
  if (kind !== 'timeseries') return 200;
  return tall ? 600 : 400;
}
