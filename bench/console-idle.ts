/**
 * The console's own CPU at a given fleet size, without Prometheus beside it (issue 17 §2's
 * fixed cost): the process's CPU and each of its threads' (main, the scrape worker, libuv and
 * V8 helpers) over a window after a warm-up, optionally with `--cpu-prof` for a profile of where
 * the main thread's time goes. `--hosts 0` is the idle console.
 *
 * `npx tsx bench/console-idle.ts [--hosts 50] [--warmup 45] [--seconds 90] [--interval 15] [--prof DIR] [--node-args '…']`
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/client';
import { registerDemoFleet } from '../server/demo/register';
import { machineLoad, numberOption } from './lib/options';
import { processCpuSeconds, sleep, spawnConsole, spawnFleet } from './lib/processes';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

/** CPU seconds of each thread of `pid`, by name (/proc/<pid>/task/<tid>/stat: utime + stime in ticks). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = tid === String(pid) ? `${name} (main)` : `${name} ${tid}`;
      out.set(key, (out.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

const hosts = process.argv.includes('--hosts') ? Math.max(0, Number(arg('--hosts')) || 0) : 50;
const opts = { intervalS: numberOption('--interval', 15), seconds: numberOption('--seconds', 90), warmup: numberOption('--warmup', 45) };
const prof = arg('--prof');
/** More node flags for the console, space-separated (e.g. `--import ./my-preload.mjs`). */
const nodeArgs = (arg('--node-args') ?? '').split(' ').filter(Boolean);
const fleet = hosts > 0 ? await spawnFleet(hosts) : undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-idle-'));
try {
  if (fleet) {
    const setup = await openDatabase({ dataDir });
    await registerDemoFleet(setup, fleet.hosts);
    await setup.close();
  }
  const server = await spawnConsole(dataDir, { SCRAPE_INTERVAL: String(opts.intervalS) }, [...(prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : []), ...nodeArgs]);
  try {
    await sleep(opts.warmup * 1000);
    const t0 = performance.now();
    const cpu0 = processCpuSeconds(server.pid);
    const th0 = threadCpu(server.pid);
    await sleep(opts.seconds * 1000);
    const wall = (performance.now() - t0) / 1000;
    const cpu = processCpuSeconds(server.pid) - cpu0;
    const th1 = threadCpu(server.pid);
    console.log(`console, ${hosts} hosts, ${Math.round(wall)} s after ${opts.warmup} s: ${cpu.toFixed(2)} s CPU = ${((cpu / wall) * 100).toFixed(2)} % of a core; ${machineLoad()}`);
    for (const [name, s] of [...th1].sort((a, b) => b[1] - a[1])) {
      const d = s - (th0.get(name) ?? 0);
      if (d > 0) console.log(`  ${name.padEnd(22)} ${d.toFixed(2)} s  ${((d / wall) * 100).toFixed(2)} %`);
    }
  } finally {
    await server.stop();
  }
} finally {
  await fleet?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
