/**
 * Test helpers for the demo fleet: a deliberately small reader of the text format (the
 * console's own parser lives in server/monitoring and is what production uses) and the
 * dashboard formulas of PANELS.md, computed from two scrapes.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { demoAddress } from './fleet';

export interface Row {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Parsed {
  types: Map<string, string>;
  rows: Row[];
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parse(text: string): Parsed {
  const types = new Map<string, string>();
  const rows: Row[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      types.set(name!, type!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`unparsable line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rows.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { types, rows };
}

export function select(p: Parsed, name: string, match: Record<string, string> = {}): Row[] {
  return p.rows.filter((r) => r.name === name && Object.entries(match).every(([k, v]) => r.labels[k] === v));
}

export function one(p: Parsed, name: string, match: Record<string, string> = {}): number {
  const rows = select(p, name, match);
  if (rows.length !== 1) throw new Error(`expected one ${name}${JSON.stringify(match)}, found ${rows.length}`);
  return rows[0]!.value;
}

export function seriesKey(r: Row): string {
  return `${r.name}${JSON.stringify(Object.entries(r.labels).sort())}`;
}

/** CPU busy % between two scrapes from the idle counters: PANELS.md panel 20 (Linux) / 19 (Windows). */
export function cpuBusyPercent(a: Parsed, b: Parsed, seconds: number): number {
  const name = a.types.has('node_cpu_seconds_total') ? 'node_cpu_seconds_total' : 'windows_cpu_time_total';
  const before = new Map(select(a, name, { mode: 'idle' }).map((r) => [seriesKey(r), r.value]));
  const idle = select(b, name, { mode: 'idle' }).map((r) => (r.value - before.get(seriesKey(r))!) / seconds);
  return 100 * (1 - idle.reduce((s, v) => s + v, 0) / idle.length);
}

/** Used % of the root filesystem (panel 154) or of C: (panel 40). */
export function rootUsedPercent(p: Parsed): number {
  if (p.types.has('node_filesystem_size_bytes')) {
    const root = { mountpoint: '/', fstype: select(p, 'node_filesystem_size_bytes', { mountpoint: '/' }).find((r) => r.labels.fstype !== 'rootfs')!.labels.fstype! };
    return 100 - (one(p, 'node_filesystem_avail_bytes', root) * 100) / one(p, 'node_filesystem_size_bytes', root);
  }
  return 100 - (one(p, 'windows_logical_disk_free_bytes', { volume: 'C:' }) * 100) / one(p, 'windows_logical_disk_size_bytes', { volume: 'C:' });
}

/** RAM used %: panel 16 (Linux) / 21 (Windows). */
export function memoryUsedPercent(p: Parsed): number {
  if (p.types.has('node_memory_MemTotal_bytes')) return (1 - one(p, 'node_memory_MemAvailable_bytes') / one(p, 'node_memory_MemTotal_bytes')) * 100;
  const total = one(p, 'windows_cs_physical_memory_bytes');
  return ((total - one(p, 'windows_os_physical_memory_free_bytes')) / total) * 100;
}

/** Services not in their healthy state: a failed systemd unit or a stopped Windows service. */
export function downServices(p: Parsed): string[] {
  const rows = [...select(p, 'node_systemd_unit_state', { state: 'failed' }), ...select(p, 'windows_service_state', { state: 'stopped' })];
  return rows.filter((r) => r.value === 1).map((r) => r.labels.name!);
}

export interface PromtoolResult {
  /** Text-format parse errors: any of these means the exposition is broken. */
  errors: string[];
  /** Lint findings (naming style and the like), which real exporters also produce. */
  lint: string[];
}

/**
 * `promtool check metrics` reads the exposition on stdin. It exits 0 when clean, 3 when it
 * only has lint findings, and 1 with "error while linting: <parse error>" when the text does
 * not parse.
 */
export function promtool(text: string): PromtoolResult {
  const res = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (res.error) throw new Error(`promtool could not run (${res.error.message}); install Debian's prometheus package, which ships it`);
  const lines = `${res.stdout}\n${res.stderr}`.split('\n').filter((l) => l.trim() !== '');
  const errors = lines.filter((l) => l.includes('error while linting') || /parse|unexpected|invalid/i.test(l));
  if (res.status !== 0 && res.status !== 3 && errors.length === 0) errors.push(`promtool exited ${res.status}: ${lines.join(' | ')}`);
  return { errors, lint: lines.filter((l) => !errors.includes(l)) };
}

/** A port free on the first demo address a moment ago (so, most likely, on the others too). */
export function freeDemoPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, demoAddress(0), () => {
      const p = (probe.address() as { port: number }).port;
      probe.close(() => resolve(p));
    });
  });
}
