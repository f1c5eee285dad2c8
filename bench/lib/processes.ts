/**
 * Child processes for the issue 3 benchmarks: the demo fleet, Prometheus and the console, each
 * in its own process so that whose CPU is whose stays clear, and /proc readings of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoHost } from '../../server/demo/fleet';
import { freePort } from '../../tests/e2e/server-process';

export { freePort };

export const PROMETHEUS = '/usr/bin/prometheus';
/** Linux reports utime/stime in clock ticks; 100 a second on every Linux this runs on. */
const CLOCK_TICKS = 100;

export interface Child {
  child: ChildProcess;
  pid: number;
  /** The last 50 KB of stdout and stderr (for error messages). */
  output: () => string;
  /** The first complete line starting with `prefix`, however long it is and however much came after it. */
  line: (prefix: string) => string | undefined;
  stop: () => Promise<void>;
}

/** Every child still running: killed when the benchmark exits, however it exits. */
const live = new Set<ChildProcess>();
let reaperInstalled = false;
function installReaper(): void {
  if (reaperInstalled) return;
  reaperInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of live) child.kill('SIGKILL');
      process.exit(130);
    });
  }
}

const TAIL_BYTES = 50_000;
/** Lines kept whole for line(): the ready lines children print at start (a fleet's host list). */
const KEPT_LINES = 200;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Child {
  installReaper();
  let tail = '';
  // Lines are assembled per stream, so a long line split over many chunks stays one line and
  // the fleet's ready line (a JSON list of every host: megabytes at 1,000 hosts) is never cut.
  const lines: string[] = [];
  const partial = { stdout: '', stderr: '' };
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  live.add(child);
  child.once('exit', () => live.delete(child));
  const take = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
    const text = d.toString();
    tail = (tail + text).slice(-TAIL_BYTES);
    const parts = (partial[stream] + text).split('\n');
    partial[stream] = parts.pop()!;
    for (const l of parts) if (lines.length < KEPT_LINES) lines.push(l);
  };
  child.stdout!.on('data', take('stdout'));
  child.stderr!.on('data', take('stderr'));
  return {
    child,
    pid: child.pid!,
    output: () => tail,
    line: (prefix) => lines.find((l) => l.startsWith(prefix)),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `ready`; if it throws (a timeout, an early exit), the child is stopped before the error goes on. */
async function orStop<T>(proc: Child, ready: () => Promise<T>): Promise<T> {
  try {
    return await ready();
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident set size in bytes, from /proc/<pid>/status. */
export function processRssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** The highest resident set size the process has had since it started (VmHWM), in bytes. */
export function processPeakRssBytes(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (error) {
      last = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The demo fleet in its own process (server/demo/cli.ts), so serving /metrics costs the measured
 * process nothing. Real-sized payloads unless asked (issue 17 §1: light hosts flatter the scraper).
 */
export async function spawnFleet(count: number, payload: 'real' | 'light' = 'real'): Promise<Child & { hosts: DemoHost[] }> {
  // node --import tsx rather than npx: the pid is the fleet itself, and no npm wrapper stays around.
  const proc = run(process.execPath, ['--import', 'tsx', 'server/demo/cli.ts', '--count', String(count), '--port', '0', '--payload', payload]);
  const line = await orStop(proc, () =>
    waitFor(
      `the demo fleet of ${count} hosts`,
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`the fleet exited: ${proc.output()}`);
        return proc.line('{"hosts"');
      },
      120_000,
      100,
    ),
  );
  return { ...proc, hosts: (JSON.parse(line) as { hosts: DemoHost[] }).hosts };
}

/** Debian's Prometheus scraping fixed targets every `intervalS` seconds, with a throw-away TSDB. */
export async function spawnPrometheus(targets: string[], intervalS: number): Promise<Child & { url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-prom-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:
  scrape_interval: ${intervalS}s
  scrape_timeout: ${intervalS}s
  evaluation_interval: 1m
scrape_configs:
  - job_name: bench
    static_configs:
      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]
`,
  );
  const proc = run(PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ]);
  const url = `http://127.0.0.1:${port}`;
  await orStop(proc, () => waitFor('Prometheus to be ready', async () => (await fetch(`${url}/-/ready`)).ok, 30_000)).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...proc,
    url,
    stop: async () => {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One instant-query result as a number (NaN when empty). */
export async function promScalar(url: string, query: string, timeS?: number): Promise<number> {
  const params = new URLSearchParams({ query });
  if (timeS !== undefined) params.set('time', String(timeS));
  const res = await fetch(`${url}/api/v1/query?${params}`);
  const body = (await res.json()) as { status: string; data: { result: { value: [number, string] }[] } };
  if (body.status !== 'success') throw new Error(`query ${query} failed: ${JSON.stringify(body)}`);
  return Number(body.data.result[0]?.value[1] ?? NaN);
}

export interface Console extends Child {
  url: string;
}

/**
 * The console from source (`node --import tsx server/main.ts start`), started with node directly so
 * the pid measured is the API process itself and not npm's wrapper.
 */
export async function spawnConsole(dataDir: string, env: Record<string, string>, nodeArgs: string[] = [], opts: { built?: boolean } = {}): Promise<Console> {
  const port = await freePort();
  // nodeArgs: e.g. --cpu-prof, which NODE_OPTIONS refuses. built: the compiled server as
  // `npm start` runs it (bin/opsdeck.js; `npm run build` first), without tsx in either thread.
  const entry = opts.built ? ['bin/opsdeck.js', 'start'] : ['--import', 'tsx', 'server/main.ts', 'start'];
  const proc = run(process.execPath, [...nodeArgs, ...entry], {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_FLEET: '0',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench-admin@opsdeck.test',
    ADMIN_PASSWORD: 'bench-admin-password',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await orStop(proc, () =>
    waitFor(
      'the console to answer /api/health',
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`the console exited: ${proc.output()}`);
        return (await fetch(`${url}/api/health`)).ok;
      },
      120_000,
    ),
  );
  return { ...proc, url };
}
