/**
 * `opsdeck grafana-dashboards DIR`: downloads the two dashboards the console embeds (Grafana
 * 1860 and 14694) from their authors' repositories at pinned commits, checks their SHA-256, and
 * writes them into DIR ready for Grafana's file provisioning (deploy/grafana): under the uids the
 * console expects, with a `datasource` variable on both. Opsdeck does not ship the dashboards
 * themselves: they are their authors' work, fetched by the operator like a grafana.com import.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMBED_VARIABLES, LINUX_DASHBOARD_UID, WINDOWS_DASHBOARD_UID } from '../contract/grafana';

export interface PinnedDashboard {
  gnetId: number;
  os: 'linux' | 'windows';
  uid: string;
  /** The file written into DIR. */
  file: string;
  /** Path under the source (default https://raw.githubusercontent.com): owner/repo/commit/file. */
  path: string;
  sha256: string;
}

export const DEFAULT_SOURCE = 'https://raw.githubusercontent.com';

export const PINNED_DASHBOARDS: PinnedDashboard[] = [
  {
    // rfmoz/grafana-dashboards is where 1860 is developed; this commit (March 2024) is the last
    // one that still has every panel id shared/PANELS.md lists (19 "Sys Load (15m avg)" went later).
    gnetId: 1860,
    os: 'linux',
    uid: LINUX_DASHBOARD_UID,
    file: 'node-exporter-full.json',
    path: 'rfmoz/grafana-dashboards/2f48119bab0d05bdb885bff1e3d8c2f0ddb4a4d2/prometheus/node-exporter-full.json',
    sha256: '98dc8a2a29e0c12b69a08d88d4e4b13afdb8ac78849c4762e8d2ce0d0bdd7d15',
  },
  {
    // The author's repository of 14694 (its export says gnetId 14694), June 2023.
    gnetId: 14694,
    os: 'windows',
    uid: WINDOWS_DASHBOARD_UID,
    file: 'windows-exporter-dashboard.json',
    path: 'rasoulivand/windows-exporter-dashboard/af72694e2ec7064e8ddc63af114bfe7929914350/windows-exporter-dashboard.json',
    sha256: 'e72a8c87e1fa47f658dd34e7b90f8a424d1ca3bab0b1dfeb7a6c2c6c17e460d6',
  },
];

export class DashboardError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Variable {
  name: string;
  type: string;
  [key: string]: Json;
}
interface Dashboard {
  uid?: string;
  id?: number | null;
  templating?: { list: Variable[] };
  [key: string]: Json | undefined;
}

/** Every `${DS_PROMETHEUS}` (a grafana.com import placeholder, which file provisioning leaves as is) becomes `${datasource}`. */
function replacePlaceholder(value: Json): Json {
  if (typeof value === 'string') return value.replaceAll('${DS_PROMETHEUS}', '${datasource}');
  if (Array.isArray(value)) return value.map(replacePlaceholder);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replacePlaceholder(v)]));
  return value;
}

/**
 * A downloaded dashboard made ready for provisioning: the console's uid, no numeric id, a
 * `datasource` variable (1860 has one; 14694's import placeholder becomes one), and every
 * variable the embed URLs set present, or it refuses (a changed upstream must not embed blank panels).
 */
export function prepareDashboard(raw: string, pinned: Pick<PinnedDashboard, 'uid' | 'os' | 'gnetId'>): Dashboard {
  let parsed: Dashboard;
  try {
    parsed = JSON.parse(raw) as Dashboard;
  } catch {
    throw new DashboardError(`dashboard ${pinned.gnetId} is not JSON`);
  }
  const { __inputs: _inputs, __requires: _requires, ...rest } = parsed;
  const dashboard = replacePlaceholder(rest as Json) as Dashboard;
  dashboard.uid = pinned.uid;
  dashboard.id = null;
  const list = dashboard.templating?.list ?? [];
  if (!list.some((v) => v.name === 'datasource')) {
    list.unshift({ name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus', current: { text: 'default', value: 'default' }, hide: 0, refresh: 1, regex: '', options: [] });
  }
  dashboard.templating = { ...dashboard.templating, list };
  const missing = EMBED_VARIABLES[pinned.os].filter((name) => !list.some((v) => v.name === name));
  if (missing.length) throw new DashboardError(`dashboard ${pinned.gnetId} has no variable ${missing.join(', ')}, which the console's embed URLs set`);
  return dashboard;
}

export async function writeDashboards(dir: string, source: string, log: (line: string) => void): Promise<void> {
  const target = resolve(dir);
  mkdirSync(target, { recursive: true });
  for (const pinned of PINNED_DASHBOARDS) {
    const url = `${source.replace(/\/+$/, '')}/${pinned.path}`;
    let bytes: Buffer;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
      if (!res.ok) throw new DashboardError(`${url} answered ${res.status}`);
      bytes = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      if (err instanceof DashboardError) throw err;
      throw new DashboardError(`could not download ${url}: ${err instanceof Error ? err.message : err}`);
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== pinned.sha256) throw new DashboardError(`${url} is not the pinned dashboard ${pinned.gnetId} (SHA-256 ${sha256}, expected ${pinned.sha256}); nothing was written for it`);
    const dashboard = prepareDashboard(bytes.toString('utf8'), pinned);
    const file = join(target, pinned.file);
    writeFileSync(`${file}.partial`, `${JSON.stringify(dashboard, null, 2)}\n`);
    renameSync(`${file}.partial`, file);
    log(`Dashboard ${pinned.gnetId} (${dashboard.title ?? pinned.file}) written to ${file} with uid ${pinned.uid}.`);
  }
}
