/**
 * The forecast pass (issue 16 §2) over 1,000 servers: "fits the tick budget". The evaluator runs
 * it every 5 minutes right after a tick, in the same loop, so a pass delays the next tick by its
 * length: it must stay well inside one evaluation interval (ALERT_EVAL_INTERVAL, 15 s).
 *
 * Built-in store: 1,000 up servers with six hours of five-minute rollups (72 buckets) of disk and
 * memory use, on PGlite and on the local PostgreSQL; `computeForecasts` is timed.
 * Prometheus mode: the same fleet's node_exporter series (one sample a minute for six hours)
 * imported into Debian's VictoriaMetrics; `computePrometheusForecasts` (one query per OS) is timed.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeForecasts } from '../server/alerting/forecasts';
import { computePrometheusForecasts } from '../server/alerting/forecasts-promql';
import { openDatabase, type Database } from '../server/db/client';
import { PrometheusClient } from '../server/monitoring/prometheus-client';
import { backends } from '../tests/api/harness';
import { freePort, run, waitFor } from '../tests/monitoring/processes';
import { machineLoad, numberOption } from './lib/options';

const SERVERS = numberOption('--servers', 1000);
const RUNS = numberOption('--runs', 5);
const BUDGET_MS = 15_000;
const VICTORIA = '/usr/bin/victoria-metrics';
const HOUR = 3_600_000;
const GIB = 1024 ** 3;

const r1 = (n: number) => Math.round(n * 10) / 10;
const ip = (g: number) => `10.61.${Math.floor(g / 250)}.${(g % 250) + 1}`;
/** Host g's disk and memory use h hours into the window: a third filling, a third sawtooth, a third flat. */
const disk = (g: number, h: number) => (g % 3 === 0 ? 40 + 2 * h : g % 3 === 1 ? 50 + 2 * h - 3 * Math.floor(h / 2) : 60);
const memory = (g: number, h: number) => (g % 2 ? 30 + h : 55);

async function seed(database: Database, nowMs: number): Promise<void> {
  await database.query(
    `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, is_agent_installed, state, last_scraped_at, disk_usage, memory_usage)
     select 'fc-' || lpad(g::text, 4, '0'), '10.61.' || (g / 250) || '.' || (g % 250 + 1), 9100, 'linux', true, true, 'up', $1::timestamptz, 60, 50
     from generate_series(0, ${SERVERS - 1}) g`,
    [new Date(nowMs)],
  );
  await database.query(`insert into metric_series (server_id, keys) select id, array['cpu_busy_pct', 'mem_used_pct', 'fs_used_pct{mountpoint="/"}'] from servers`);
  // 72 five-minute buckets of the last six hours, the shapes of disk() and memory().
  await database.query(
    `insert into metric_rollups (server_id, bucket, values)
     select s.id, to_timestamp(floor($1 / 300000.0) * 300 - b * 300), array[
       10,
       case when g % 2 = 1 then 30 + (72 - b) / 12.0 else 55 end,
       case when g % 3 = 0 then 40 + (72 - b) / 6.0 when g % 3 = 1 then 50 + (72 - b) / 6.0 - 3 * floor((72 - b) / 24.0) else 60 end
     ]::real[]
     from (select id, substring(hostname from 4)::int as g from servers) s, generate_series(1, 72) b`,
    [nowMs],
  );
}

async function timePass(what: string, pass: () => Promise<unknown[]>): Promise<void> {
  const times: number[] = [];
  let written = 0;
  for (let i = 0; i < RUNS + 1; i++) {
    const t = performance.now();
    written = (await pass()).length;
    if (i > 0) times.push(performance.now() - t); // the first run warms caches
  }
  times.sort((a, b) => a - b);
  const max = times.at(-1)!;
  console.log(`${what}: ${written} forecasts for ${SERVERS} servers; median ${r1(times[times.length >> 1]!)} ms, max ${r1(max)} ms over ${RUNS} runs (budget ${BUDGET_MS} ms: ${max < BUDGET_MS ? 'ok' : 'OVER'})`);
}

async function builtin(): Promise<void> {
  for (const backend of await backends()) {
    const { database, drop } = await backend.open();
    try {
      const now = Date.now();
      await seed(database, now);
      await timePass(`built-in store on ${backend.name}`, () => computeForecasts(database, now));
    } finally {
      await drop();
    }
  }
}

async function prometheusMode(): Promise<void> {
  if (!existsSync(VICTORIA)) return void console.log('Prometheus mode: skipped (no /usr/bin/victoria-metrics)');
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-forecast-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const vm = run(VICTORIA, [`-httpListenAddr=127.0.0.1:${port}`, `-storageDataPath=${join(dir, 'vm')}`, '-loggerLevel=ERROR', '-search.latencyOffset=0s', '-retentionPeriod=1']);
  const database = await openDatabase({});
  try {
    await waitFor(`VictoriaMetrics\n${vm.output()}`, async () => (await fetch(`${url}/health`).catch(() => null))?.ok);
    const now = Math.floor(Date.now() / 60_000) * 60_000;
    const timestamps: number[] = [];
    for (let t = now - 6 * HOUR; t <= now; t += 60_000) timestamps.push(t);
    const fs = { device: '/dev/sda1', fstype: 'ext4', mountpoint: '/' };
    for (let from = 0; from < SERVERS; from += 100) {
      const lines: string[] = [];
      for (let g = from; g < Math.min(SERVERS, from + 100); g++) {
        const instance = `${ip(g)}:9100`;
        const h = (t: number) => 6 - (now - t) / HOUR;
        const line = (name: string, labels: Record<string, string>, values: number[]) => JSON.stringify({ metric: { __name__: name, job: 'node', instance, ...labels }, values, timestamps });
        lines.push(
          line('node_filesystem_size_bytes', fs, timestamps.map(() => 100 * GIB)),
          line('node_filesystem_avail_bytes', fs, timestamps.map((t) => (100 - disk(g, h(t))) * GIB)),
          line('node_memory_MemTotal_bytes', {}, timestamps.map(() => 16 * GIB)),
          line('node_memory_MemAvailable_bytes', {}, timestamps.map((t) => ((100 - memory(g, h(t))) / 100) * 16 * GIB)),
        );
      }
      const res = await fetch(`${url}/api/v1/import`, { method: 'POST', body: lines.join('\n') });
      if (res.status !== 204) throw new Error(`import: ${res.status} ${await res.text()}`);
    }
    await fetch(`${url}/internal/force_flush`);
    const client = new PrometheusClient(url);
    await waitFor('imported series', async () => (await client.query('count(node_filesystem_size_bytes)', now / 1000))[0]?.value === SERVERS, 60_000);
    await seed(database, now);
    await timePass('Prometheus mode (VictoriaMetrics, predict_linear)', () => computePrometheusForecasts(database, client, now));
  } finally {
    await vm.stop();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`Forecast pass over ${SERVERS} servers (${machineLoad()})`);
await builtin();
await prometheusMode();
