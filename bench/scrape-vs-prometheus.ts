/**
 * The real server process beside Debian's Prometheus, scraping the same targets at the same
 * interval at the same time (issue 17 §1, §2): for 50, 200 and 1,000 real-sized demo hosts
 * (server/demo/ballast.ts: 1,500 samples on Linux, 3,500 on Windows), CPU per sample, % of one
 * core and RSS of both. The console runs as `npm start` runs it (node --import tsx
 * server/main.ts start, DEMO_FLEET=0) with the hosts registered as agent-configured servers, so
 * its figure includes everything the process does each round: scraping, parsing, the evaluator,
 * rollups, timers, the HTTP server. The fleet is a third process; neither scraper pays for it.
 *
 * Each size: both start, `--warmup` seconds pass (PGlite's start, the first rounds), then
 * /proc/<pid>/stat is read at both ends of a `--seconds` window and RSS every 5 s. Samples per
 * round come from Prometheus's own `scrape_samples_scraped` (the same targets for both).
 *
 * `npm run bench -- scrape-vs-prometheus [--hosts 50,200,1000] [--interval 15] [--seconds 120] [--warmup 45]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/client';
import { registerDemoFleet } from '../server/demo/register';
import { machineLoad, numberOption } from './lib/options';
import { processCpuSeconds, processRssBytes, promScalar, sleep, spawnConsole, spawnFleet, spawnPrometheus } from './lib/processes';

const MB = 1024 * 1024;
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

interface Side {
  cpuSeconds: number;
  percentOfCore: number;
  microsPerSample: number;
  rssMeanMB: number;
  rssMaxMB: number;
}

export interface SizeResult {
  hosts: number;
  live: number;
  samplesPerRound: number;
  seconds: number;
  load: string;
  console: Side;
  prometheus: Side;
  ratio: number;
  /** Chart sample rows the console wrote per live host in the window, against the rounds due: proof it kept up. */
  consoleRoundsPerHost: number;
  roundsDue: number;
}

export async function runSize(hosts: number, opts: { intervalS: number; seconds: number; warmup: number }, log = console.log): Promise<SizeResult> {
  const fleet = await spawnFleet(hosts);
  const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-svp-'));
  try {
    const live = fleet.hosts.filter((h) => h.profile !== 'down');
    const setup = await openDatabase({ dataDir });
    await registerDemoFleet(setup, fleet.hosts);
    await setup.close();
    log(`  ${hosts} hosts (${live.length} live): starting the console and Prometheus, ${opts.warmup} s warm-up, ${opts.seconds} s measured`);
    let windowMs = { from: 0, to: 0 };
    let result: SizeResult;
    const [server, prom] = await Promise.all([
      spawnConsole(dataDir, { SCRAPE_INTERVAL: String(opts.intervalS) }),
      spawnPrometheus(
        fleet.hosts.map((h) => `${h.ipaddress}:${h.port}`),
        opts.intervalS,
      ),
    ]);
    try {
      await sleep(opts.warmup * 1000);
      const pids = { console: server.pid, prometheus: prom.pid };
      const rss = { console: [] as number[], prometheus: [] as number[] };
      const cpu0 = { console: processCpuSeconds(pids.console), prometheus: processCpuSeconds(pids.prometheus) };
      const t0 = performance.now();
      const until = t0 + opts.seconds * 1000;
      while (performance.now() < until) {
        rss.console.push(processRssBytes(pids.console));
        rss.prometheus.push(processRssBytes(pids.prometheus));
        await sleep(Math.min(5000, until - performance.now()));
      }
      const wall = (performance.now() - t0) / 1000;
      const cpu = { console: processCpuSeconds(pids.console) - cpu0.console, prometheus: processCpuSeconds(pids.prometheus) - cpu0.prometheus };
      const samplesPerRound = await promScalar(prom.url, 'sum(scrape_samples_scraped)');
      const up = await promScalar(prom.url, 'sum(up)');
      if (!(up >= live.length * 0.95)) throw new Error(`Prometheus sees ${up} of ${live.length} live targets up: ${prom.output().slice(-2000)}`);
      const samples = samplesPerRound * (wall / opts.intervalS);
      const side = (k: 'console' | 'prometheus'): Side => ({
        cpuSeconds: Math.round(cpu[k] * 100) / 100,
        percentOfCore: Math.round((cpu[k] / wall) * 1000) / 10,
        microsPerSample: Math.round((cpu[k] / samples) * 1e7) / 10,
        rssMeanMB: Math.round(rss[k].reduce((s, v) => s + v, 0) / rss[k].length / MB),
        rssMaxMB: Math.round(Math.max(...rss[k]) / MB),
      });
      const c = side('console');
      const p = side('prometheus');
      windowMs = { from: Date.now() - wall * 1000, to: Date.now() };
      result = { hosts, live: live.length, samplesPerRound, seconds: Math.round(wall), load: machineLoad(), console: c, prometheus: p, ratio: Math.round((c.microsPerSample / p.microsPerSample) * 100) / 100, consoleRoundsPerHost: 0, roundsDue: Math.floor(wall / opts.intervalS) };
    } finally {
      await Promise.all([server.stop(), prom.stop()]);
    }
    // Did the console scrape every live host every round? (Its sample rows in the window.)
    const check = await openDatabase({ dataDir });
    const [row] = await check.query<{ n: number }>('select count(*)::int as n from metric_samples where ts >= $1 and ts <= $2', [new Date(windowMs.from), new Date(windowMs.to)]);
    await check.close();
    result.consoleRoundsPerHost = Math.round(((row?.n ?? 0) / live.length) * 10) / 10;
    return result;
  } finally {
    await fleet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (arg('--hosts') ?? '50,200,1000').split(',').map(Number).filter((n) => n > 0);
  const opts = { intervalS: numberOption('--interval', 15), seconds: numberOption('--seconds', 120), warmup: numberOption('--warmup', 45) };
  console.log(`Console vs Prometheus ${'2.42'} scraping the same real-sized demo hosts every ${opts.intervalS} s, at the same time; ${machineLoad()}`);
  for (const hosts of sizes) {
    const r = await runSize(hosts, opts);
    const line = (name: string, s: Side) => `    ${name.padEnd(11)} ${String(s.microsPerSample).padStart(6)} µs CPU/sample  ${String(s.percentOfCore).padStart(5)} % of a core  RSS mean ${s.rssMeanMB} MB, max ${s.rssMaxMB} MB`;
    console.log(`  ${r.hosts} hosts (${r.live} live), ${r.samplesPerRound} samples per round, ${r.seconds} s measured; ${r.load}`);
    console.log(line('console', r.console));
    console.log(line('prometheus', r.prometheus));
    console.log(`    console / prometheus CPU per sample: ${r.ratio}×; the console wrote ${r.consoleRoundsPerHost} sample rows per live host of ${r.roundsDue} rounds due`);
  }
}
