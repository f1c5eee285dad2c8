/**
 * The real server process beside Debian's Prometheus, scraping the same targets at the same
 * interval at the same time (issue 17 §1, §2): for 50, 200 and 1,000 real-sized demo hosts
 * (server/demo/ballast.ts: 1,500 samples on Linux, 3,500 on Windows), CPU per sample, % of one
 * core and RSS of both. The console runs as `npm start` runs it (the compiled server,
 * DEMO_FLEET=0) with the hosts registered as agent-configured servers, so
 * its figure includes everything the process does each round: scraping, parsing, the evaluator,
 * rollups, timers, the HTTP server. The fleet is a third process; neither scraper pays for it.
 *
 * Each size: both start, `--warmup` seconds pass (PGlite's start, the first rounds), then
 * /proc/<pid>/stat is read at both ends of a `--seconds` window and RSS every 5 s. Samples per
 * round come from Prometheus's own `scrape_samples_scraped` (the same targets for both).
 *
 * `--history 24` (hours): the console starts on a data folder that already holds that much history
 * for every live host (bench/lib/history.ts: one row per host per interval with the host's real
 * layout width, written in time order as the collector's rounds write them, and the store's own
 * five-minute rollups; seeded once, ~10 min at 1,000 hosts, then cached in the temp folder for 20 h).
 * The retention is set so the console's first prune (at start, as every 10 min) deletes the
 * oldest ten minutes of it — the prune and VACUUM a console that has run for a day does — and the
 * rest of the day stays. `--console-only`: no Prometheus (its CPU and 5 GB stay off the machine
 * when only the console's memory is wanted). The console is the compiled server (bin/opsdeck.js,
 * as `npm start` runs it), its server half compiled afresh by the bench first (scripts/build.ts
 * server, a few seconds) so the figure is never that of an older build; `--source` runs the
 * sources through tsx instead, which costs ~20 % more CPU than what ships (tsx compiles with
 * esbuild's keepNames: every closure the hot paths create is wrapped in a defineProperty call;
 * docs/decisions.md "Scrape cost at 50 real-sized hosts"). `--built` is accepted and changes nothing. `--mem-probe`:
 * per thread V8 heap and PGlite's WebAssembly memory every 5 s (bench/lib/mem-probe.mjs), the
 * last and the largest of each printed. RSS max is over the measured window; "peak" is the
 * process's own high-water mark (VmHWM) since it started, warm-up and first prune included.
 *
 * `npm run bench -- scrape-vs-prometheus [--hosts 50,200,1000] [--interval 15] [--seconds 120] [--warmup 45]
 *   [--history 24] [--console-only] [--source] [--mem-probe]`
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/client';
import { registerDemoFleet } from '../server/demo/register';
import { historyDataDir } from './lib/history';
import { flagOption, machineLoad, numberOption } from './lib/options';
import { processCpuSeconds, processPeakRssBytes, processRssBytes, promScalar, sleep, spawnConsole, spawnFleet, spawnPrometheus } from './lib/processes';

const MB = 1024 * 1024;
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

interface Side {
  cpuSeconds: number;
  percentOfCore: number;
  microsPerSample: number;
  rssMeanMB: number;
  rssMaxMB: number;
  /** VmHWM: the highest RSS since the process started. */
  rssPeakMB: number;
}

export interface SizeOptions {
  intervalS: number;
  seconds: number;
  warmup: number;
  /** Hours of history the console starts with (0: a fresh data folder). */
  historyHours?: number;
  consoleOnly?: boolean;
  built?: boolean;
  memProbe?: boolean;
}

/** Per thread: the last and the largest reading of each figure the probe writes (MB). */
export type ProbeSummary = Record<string, Record<string, { last: number; max: number }>>;

function summarizeProbe(file: string, fromMs: number): ProbeSummary {
  const out: ProbeSummary = {};
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    if ((r.t as number) < fromMs) continue;
    const thread = String(r.thread).startsWith('worker') ? 'worker' : 'main';
    const figures: Record<string, number> = {};
    for (const [k, v] of Object.entries(r)) if (typeof v === 'number' && k !== 't') figures[k] = v;
    (r.wasm as number[]).forEach((v, i) => (figures[`wasm${i}`] = v));
    const t = (out[thread] ??= {});
    for (const [k, v] of Object.entries(figures)) t[k] = { last: v, max: Math.max(v, t[k]?.max ?? 0) };
  }
  return out;
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
  /** Sample rows in the console's store when it stopped (with history: the day plus the window). */
  storedRows: number;
  /** Sample rows the console's prunes deleted (from the count before it started). */
  prunedRows: number;
  probe?: ProbeSummary;
}

export async function runSize(hosts: number, opts: SizeOptions, log = console.log): Promise<SizeResult> {
  const fleet = await spawnFleet(hosts);
  const history = opts.historyHours ? await historyDataDir({ servers: hosts, hours: opts.historyHours, stepS: opts.intervalS }, log) : null;
  const dataDir = history?.dataDir ?? mkdtempSync(join(tmpdir(), 'opsdeck-bench-svp-'));
  const probeFile = join(dataDir, 'mem-probe.jsonl');
  try {
    const live = fleet.hosts.filter((h) => h.profile !== 'down');
    // Registers the hosts (or, on a seeded folder, re-points them to the live fleet).
    const setup = await openDatabase({ dataDir });
    await registerDemoFleet(setup, fleet.hosts);
    const [{ before } = { before: 0 }] = await setup.query<{ before: number }>('select count(*)::int as before from metric_samples');
    await setup.close();
    const env: Record<string, string> = { SCRAPE_INTERVAL: String(opts.intervalS) };
    if (history) {
      // The first prune deletes the seed's oldest ten minutes, as a day-old console's prune does.
      const ageH = (Date.now() - history.endMs) / 3_600_000;
      env.METRICS_RETENTION_HOURS = String(opts.historyHours! + ageH - 10 / 60);
      log(`  ${before} sample rows of history (${opts.historyHours} h ending ${Math.round(ageH * 60)} min ago${history.seededNow ? `, seeded in ${history.seedSeconds} s` : ', from the cache'})`);
    }
    if (opts.memProbe) Object.assign(env, { MEM_PROBE_FILE: probeFile });
    const nodeArgs = opts.memProbe ? ['--import', './bench/lib/mem-probe.mjs'] : [];
    log(`  ${hosts} hosts (${live.length} live): starting the console${opts.consoleOnly ? '' : ' and Prometheus'}, ${opts.warmup} s warm-up, ${opts.seconds} s measured`);
    let windowMs = { from: 0, to: 0 };
    let result: SizeResult;
    const [server, prom] = await Promise.all([
      spawnConsole(dataDir, env, nodeArgs, { built: opts.built }),
      opts.consoleOnly
        ? null
        : spawnPrometheus(
            fleet.hosts.map((h) => `${h.ipaddress}:${h.port}`),
            opts.intervalS,
          ),
    ]);
    try {
      await sleep(opts.warmup * 1000);
      const pids = { console: server.pid, prometheus: prom?.pid ?? 0 };
      const rss = { console: [] as number[], prometheus: [] as number[] };
      const cpuOf = (pid: number) => (pid ? processCpuSeconds(pid) : 0);
      const cpu0 = { console: cpuOf(pids.console), prometheus: cpuOf(pids.prometheus) };
      const t0 = performance.now();
      const from = Date.now();
      const until = t0 + opts.seconds * 1000;
      while (performance.now() < until) {
        rss.console.push(processRssBytes(pids.console));
        if (prom) rss.prometheus.push(processRssBytes(pids.prometheus));
        await sleep(Math.min(5000, until - performance.now()));
      }
      rss.console.push(processRssBytes(pids.console));
      const peak = { console: processPeakRssBytes(pids.console), prometheus: pids.prometheus ? processPeakRssBytes(pids.prometheus) : 0 };
      const wall = (performance.now() - t0) / 1000;
      const cpu = { console: cpuOf(pids.console) - cpu0.console, prometheus: cpuOf(pids.prometheus) - cpu0.prometheus };
      // Without Prometheus, a round's samples are what the fleet serves: count them once.
      const samplesPerRound = prom ? await promScalar(prom.url, 'sum(scrape_samples_scraped)') : await fleetSamplesPerRound(live);
      if (prom) {
        const up = await promScalar(prom.url, 'sum(up)');
        if (!(up >= live.length * 0.95)) throw new Error(`Prometheus sees ${up} of ${live.length} live targets up: ${prom.output().slice(-2000)}`);
      }
      const samples = samplesPerRound * (wall / opts.intervalS);
      const side = (k: 'console' | 'prometheus'): Side => ({
        cpuSeconds: Math.round(cpu[k] * 100) / 100,
        percentOfCore: Math.round((cpu[k] / wall) * 1000) / 10,
        microsPerSample: Math.round((cpu[k] / samples) * 1e7) / 10,
        rssMeanMB: rss[k].length ? Math.round(rss[k].reduce((s, v) => s + v, 0) / rss[k].length / MB) : 0,
        rssMaxMB: rss[k].length ? Math.round(Math.max(...rss[k]) / MB) : 0,
        rssPeakMB: Math.round(peak[k] / MB),
      });
      const c = side('console');
      const p = side('prometheus');
      windowMs = { from: Date.now() - wall * 1000, to: Date.now() };
      result = {
        hosts,
        live: live.length,
        samplesPerRound,
        seconds: Math.round(wall),
        load: machineLoad(),
        console: c,
        prometheus: p,
        ratio: prom ? Math.round((c.microsPerSample / p.microsPerSample) * 100) / 100 : NaN,
        consoleRoundsPerHost: 0,
        roundsDue: Math.floor(wall / opts.intervalS),
        storedRows: 0,
        prunedRows: 0,
        probe: opts.memProbe ? summarizeProbe(probeFile, from) : undefined,
      };
    } finally {
      await Promise.all([server.stop(), prom?.stop()]);
    }
    // Did the console scrape every live host every round? (Its sample rows in the window.)
    const check = await openDatabase({ dataDir });
    const [row] = await check.query<{ n: number }>('select count(*)::int as n from metric_samples where ts >= $1 and ts <= $2', [new Date(windowMs.from), new Date(windowMs.to)]);
    const [all] = await check.query<{ n: number; recent: number }>('select count(*)::int as n, count(*) filter (where ts > $1)::int as recent from metric_samples', [new Date(history?.endMs ?? 0)]);
    await check.close();
    result.consoleRoundsPerHost = Math.round(((row?.n ?? 0) / live.length) * 10) / 10;
    result.storedRows = all?.n ?? 0;
    result.prunedRows = Math.max(0, before - ((all?.n ?? 0) - (all?.recent ?? 0)));
    return result;
  } finally {
    await fleet.stop();
    if (history) history.remove();
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Samples one round of the live fleet serves (sample lines of one scrape of each host). */
async function fleetSamplesPerRound(live: { ipaddress: string; port: number }[]): Promise<number> {
  let n = 0;
  for (const h of live) {
    const text = await (await fetch(`http://${h.ipaddress}:${h.port}/metrics`)).text();
    for (const line of text.split('\n')) if (line && line[0] !== '#') n++;
  }
  return n;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (arg('--hosts') ?? '50,200,1000').split(',').map(Number).filter((n) => n > 0);
  const opts: SizeOptions = {
    intervalS: numberOption('--interval', 15),
    seconds: numberOption('--seconds', 120),
    warmup: numberOption('--warmup', 45),
    historyHours: process.argv.includes('--history') ? numberOption('--history', 24) : 0,
    consoleOnly: flagOption('--console-only'),
    built: !flagOption('--source'),
    memProbe: flagOption('--mem-probe'),
  };
  if (opts.built) {
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', 'server'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('Compiling the server failed (scripts/build.ts server)');
  }
  const what = `${opts.built ? 'built ' : 'source (tsx) '}console${opts.historyHours ? ` with ${opts.historyHours} h of history` : ''}`;
  console.log(
    opts.consoleOnly
      ? `The ${what} scraping real-sized demo hosts every ${opts.intervalS} s (no Prometheus); ${machineLoad()}`
      : `The ${what} vs Prometheus ${'2.42'} scraping the same real-sized demo hosts every ${opts.intervalS} s, at the same time; ${machineLoad()}`,
  );
  for (const hosts of sizes) {
    const r = await runSize(hosts, opts);
    const line = (name: string, s: Side) =>
      `    ${name.padEnd(11)} ${String(s.microsPerSample).padStart(6)} µs CPU/sample  ${String(s.percentOfCore).padStart(5)} % of a core  RSS mean ${s.rssMeanMB} MB, max ${s.rssMaxMB} MB, peak since start ${s.rssPeakMB} MB`;
    console.log(`  ${r.hosts} hosts (${r.live} live), ${r.samplesPerRound} samples per round, ${r.seconds} s measured; ${r.load}`);
    console.log(line('console', r.console));
    if (!opts.consoleOnly) {
      console.log(line('prometheus', r.prometheus));
      console.log(`    console / prometheus CPU per sample: ${r.ratio}×`);
    }
    console.log(`    the console wrote ${r.consoleRoundsPerHost} sample rows per live host of ${r.roundsDue} rounds due; ${r.storedRows} sample rows stored at the end, ${r.prunedRows} pruned`);
    for (const [thread, figures] of Object.entries(r.probe ?? {})) {
      console.log(`    ${thread.padEnd(7)} ${Object.entries(figures).map(([k, v]) => `${k} ${v.last}/${v.max}`).join(', ')} MB (last/max)`);
    }
  }
}
