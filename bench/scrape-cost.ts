/**
 * Scrape-and-parse CPU per million samples, Opsdeck's ScrapeCollector beside Debian's
 * Prometheus scraping the same simulated exporters in the same run. Target (issue 3 §9):
 * Opsdeck within 2× of Prometheus's CPU.
 *
 * The demo fleet runs in its own process (server/demo/cli.ts) so serving /metrics is counted
 * for neither side. Opsdeck is measured in this process with process.cpuUsage() over a fixed
 * number of scrape rounds (every live host once per round, rounds back to back), in two set-ups:
 *  - fetch + parse + derive: the collector with a writer that drops what it gets;
 *  - full pipeline: the real ObservationWriter and MetricStore on a PGlite data folder, as
 *    `npm start` runs them (server row update, services, chart samples).
 * Prometheus is measured afterwards, alone, from /proc/<pid>/stat over a fixed window once its
 * first scrapes have created every series; its samples are sum_over_time(scrape_samples_scraped)
 * over that window. Both sides count the same thing: samples parsed out of the exposition.
 *
 * `npx tsx bench/scrape-cost.ts [--hosts 200] [--rounds 20] [--prom-seconds 30] [--prom-interval 1]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../server/db/client';
import { registerDemoFleet } from '../server/demo/register';
import { MetricStore } from '../server/monitoring/metric-store';
import { ObservationWriter } from '../server/monitoring/observations';
import { ScrapeCollector, type ScrapeSettings, type Target } from '../server/monitoring/scrape-collector';
import { processCpuSeconds, promScalar, sleep, spawnFleet, spawnPrometheus } from './lib/processes';
import { machineLoad, numberOption } from './lib/options';

const problems: string[] = [];
const quietLog = {
  warn: (obj: object, msg: string) => void problems.push(`${msg}: ${String((obj as { err?: Error }).err?.message ?? '')}`),
  error: (obj: object, msg: string) => console.error(msg, obj),
};
const settings: ScrapeSettings = { intervalS: 15, timeoutS: 10, concurrency: 32, retentionHours: 24 };

/** The real writer, noting why a scrape failed (the collector records that on the row only). */
class NotingWriter extends ObservationWriter {
  override async queueDown(serverId: string, atMs: number, error: string): Promise<void> {
    problems.push(error);
    await super.queueDown(serverId, atMs, error);
  }
}

/** The collector over a fixed target list, its writer dropping everything: fetch, parse and derive only. */
class ParseOnlyCollector extends ScrapeCollector {
  constructor(private readonly list: Target[]) {
    const noop = async () => {};
    const down = async (_id: string, _at: number, error: string) => void problems.push(error);
    const writer = { store: null, up: noop, queueUp: noop, down, queueDown: down, flush: noop, forget: () => {} } as unknown as ObservationWriter;
    super(null as unknown as Database, writer, settings, quietLog);
  }

  override async targets(): Promise<Target[]> {
    return this.list;
  }
}

export interface SideResult {
  cpuSeconds: number;
  samples: number;
  wallSeconds: number;
  cpuSecondsPerMillion: number;
}

async function measureRounds(collector: ScrapeCollector, rounds: number, warmup = 2): Promise<SideResult> {
  for (let i = 0; i < warmup; i++) await collector.tick();
  if (collector.stats.failures) throw new Error(`${collector.stats.failures} scrapes failed during warm-up: ${problems.slice(0, 3).join('; ') || 'no answer'}`);
  const samples0 = collector.stats.samples;
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await collector.tick();
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const samples = collector.stats.samples - samples0;
  return { cpuSeconds, samples, wallSeconds: (performance.now() - wall0) / 1000, cpuSecondsPerMillion: (cpuSeconds * 1e6) / samples };
}

async function prometheusSamplesAppended(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let total = 0;
  for (const m of text.matchAll(/^prometheus_tsdb_head_samples_appended_total(?:\{[^}]*\})? (\S+)$/gm)) total += Number(m[1]);
  return total;
}

export async function runScrapeCostBench(opts: { hosts: number; rounds: number; promSeconds: number; promIntervalS: number }) {
  const fleet = await spawnFleet(opts.hosts);
  const live = fleet.hosts.filter((h) => h.profile !== 'down');
  const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-scrape-'));
  try {
    const targets: Target[] = live.map((h, i) => ({ id: `bench-${i}`, ipaddress: h.ipaddress, agentPort: h.port, os: h.os }));
    const parseOnly = await measureRounds(new ParseOnlyCollector(targets), opts.rounds);

    const database = await openDatabase({ dataDir });
    await registerDemoFleet(database, live);
    // PGlite's initdb holds the event loop for seconds, while the fleet closes the collector's
    // idle keep-alive sockets (5 s): reused before the loop has seen them close, they hang up.
    await sleep(6000);
    const full = new ScrapeCollector(database, new NotingWriter(database, new MetricStore(database)), settings, quietLog);
    const withStore = await measureRounds(full, opts.rounds);
    await full.stop();
    await database.close();

    const prom = await spawnPrometheus(
      live.map((h) => `${h.ipaddress}:${h.port}`),
      opts.promIntervalS,
    );
    let prometheus: SideResult & { samplesAppended: number; scrapes: number };
    try {
      // The first scrapes create every series, a one-off cost the steady state does not have.
      await sleep(Math.max(10, 5 * opts.promIntervalS) * 1000);
      const appended0 = await prometheusSamplesAppended(prom.url);
      const cpu0 = processCpuSeconds(prom.pid);
      const t0 = Date.now();
      await sleep(opts.promSeconds * 1000);
      const cpuSeconds = processCpuSeconds(prom.pid) - cpu0;
      const t1 = Date.now();
      const appended = (await prometheusSamplesAppended(prom.url)) - appended0;
      const windowS = Math.round((t1 - t0) / 1000);
      const samples = await promScalar(prom.url, `sum(sum_over_time(scrape_samples_scraped{job="bench"}[${windowS}s]))`, t1 / 1000);
      const scrapes = await promScalar(prom.url, `sum(count_over_time(up{job="bench"}[${windowS}s]))`, t1 / 1000);
      const failed = await promScalar(prom.url, `count(up{job="bench"} == 0)`, t1 / 1000);
      if (failed > 0) throw new Error(`${failed} Prometheus targets are down: ${prom.output()}`);
      prometheus = { cpuSeconds, samples, wallSeconds: (t1 - t0) / 1000, cpuSecondsPerMillion: (cpuSeconds * 1e6) / samples, samplesAppended: appended, scrapes };
    } finally {
      await prom.stop();
    }
    const r2 = (n: number) => Math.round(n * 100) / 100;
    return {
      hosts: opts.hosts,
      liveHosts: live.length,
      rounds: opts.rounds,
      parseOnly,
      withStore,
      prometheus,
      ratioParseOnly: r2(parseOnly.cpuSecondsPerMillion / prometheus.cpuSecondsPerMillion),
      ratioWithStore: r2(withStore.cpuSecondsPerMillion / prometheus.cpuSecondsPerMillion),
    };
  } finally {
    await fleet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opts = {
    hosts: numberOption('--hosts', 200),
    rounds: numberOption('--rounds', 20),
    promSeconds: numberOption('--prom-seconds', 30),
    promIntervalS: numberOption('--prom-interval', 1),
  };
  const r = await runScrapeCostBench(opts);
  const line = (name: string, s: SideResult) =>
    `  ${name.padEnd(34)} ${s.cpuSecondsPerMillion.toFixed(2).padStart(6)} CPU s per million samples  (${s.cpuSeconds.toFixed(2)} CPU s, ${(s.samples / 1e6).toFixed(2)} M samples, ${s.wallSeconds.toFixed(1)} s wall)`;
  console.log(`scrape cost, ${r.liveHosts} live simulated hosts of ${r.hosts} (fleet in its own process); ${machineLoad()}`);
  console.log(line(`Opsdeck fetch+parse+derive`, r.parseOnly));
  console.log(line(`Opsdeck full pipeline (PGlite)`, r.withStore));
  console.log(line(`Prometheus 2.42, ${opts.promIntervalS} s interval`, r.prometheus));
  console.log(`  (Prometheus: ${r.prometheus.scrapes} scrapes; ${(r.prometheus.samplesAppended / 1e6).toFixed(2)} M samples appended incl. its 5 per-scrape series)`);
  console.log(`  ratio Opsdeck / Prometheus: ${r.ratioParseOnly}× fetch+parse+derive, ${r.ratioWithStore}× full pipeline (target ≤ 2×)`);
}
