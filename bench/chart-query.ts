/**
 * A 24 h chart query for one panel (77, CPU Basic: six series) of one server among 200 that
 * each hold 24 h of scrapes at 15 s (1.15 M rows, bench/lib/history.ts). Target (issue 3 §9):
 * under 50 ms.
 *
 * On a copy of the seeded data folder:
 *  1. the five-minute rollups are made again from the samples, as the console's rollup job
 *     would (MetricStore.rollup over all 288 buckets at once), timing it and watching the event
 *     loop with a 5 ms interval (PGlite runs in this process: a long statement stalls requests);
 *  2. the database is closed and reopened (nothing cached by PGlite, as after a restart);
 *  3. one request at a time: `GET /api/servers/chart/:id?panel=77&from&to` through the real app
 *     (Fastify inject: routing, session, validation, panel lookup, the query, serialisation) at
 *     the default step (Monitoring.defaultStep: 300 s for 24 h, so rollups), then
 *     MetricStore.query at 300 s (rollups) and at 288 s (raw samples: the pre-rollup chart).
 * "Cold" rotates over servers not asked for yet (opening a server's charts); "warm" repeats one
 * (refreshing them). CPU per request is process.cpuUsage() around it: it holds up when other
 * work loads the machine, wall-clock times do not.
 *
 * `npx tsx bench/chart-query.ts [--requests 40]`
 */
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import { openDatabase, type Database } from '../server/db/client';
import { users } from '../server/db/schema';
import { MetricStore } from '../server/monitoring/metric-store';
import { historyDataDir } from './lib/history';
import { machineLoad, numberOption } from './lib/options';

const PANEL_77_KEYS = ['system', 'user', 'iowait', 'irq', 'other', 'idle'].map((mode) => `cpu_share{mode="${mode}"}`);
const DAY_MS = 86_400_000;
/** The step before rollups: about 300 points for 24 h, read from raw samples. */
const RAW_STEP_S = Math.ceil(DAY_MS / 1000 / 300);
const ROLLUP_STEP_S = 300;

export interface Timing {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** CPU time of this process per request (PGlite runs in it): what the wall time would be on an idle machine, less I/O waits. */
  cpuP50Ms: number;
  cpuP95Ms: number;
  n: number;
}

const pct = (sorted: number[], p: number) => +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1);

function summary(times: { wall: number; cpu: number }[]): Timing {
  const wall = times.map((t) => t.wall).sort((a, b) => a - b);
  const cpu = times.map((t) => t.cpu).sort((a, b) => a - b);
  return { p50Ms: pct(wall, 50), p95Ms: pct(wall, 95), maxMs: +wall[wall.length - 1]!.toFixed(1), cpuP50Ms: pct(cpu, 50), cpuP95Ms: pct(cpu, 95), n: wall.length };
}

async function timeEach<T>(items: T[], run: (item: T) => Promise<void>): Promise<{ wall: number; cpu: number }[]> {
  const times: { wall: number; cpu: number }[] = [];
  for (const item of items) {
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    await run(item);
    const wall = performance.now() - t;
    const cpu = process.cpuUsage(cpu0);
    times.push({ wall, cpu: (cpu.user + cpu.system) / 1000 });
  }
  return times;
}

/** Interval callbacks every `everyMs`: the longest time the event loop did not get to one. */
function watchEventLoop(everyMs = 5) {
  let last = performance.now();
  const gaps: number[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last - everyMs);
    last = now;
  }, everyMs);
  return () => {
    clearInterval(timer);
    gaps.sort((a, b) => a - b);
    return { worstMs: +(gaps[gaps.length - 1] ?? 0).toFixed(1), p99Ms: +(gaps[Math.floor(gaps.length * 0.99)] ?? 0).toFixed(1), over50ms: gaps.filter((g) => g > 50).length };
  };
}

/**
 * The console's rollup job over the whole seeded day at once: the rollups cached with the seed
 * are emptied first (TRUNCATE, so no dead rows stay behind) and written again in bucket order,
 * every server's row of a bucket together, as a live console writes them.
 */
async function rollUp(database: Database, endMs: number) {
  await database.query('truncate metric_rollups');
  const store = new MetricStore(database);
  const stop = watchEventLoop();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const buckets = await store.rollup(endMs + 3_600_000, 1000);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const stall = stop();
  const [{ rows } = { rows: 0 }] = await database.query<{ rows: number }>('select count(*)::int as rows from metric_rollups');
  await database.query('vacuum analyze metric_rollups');
  return { buckets, rows, seconds: +seconds.toFixed(1), cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(1), stall };
}

export async function runChartQueryBench(opts: { requests: number }, log = console.log) {
  const history = await historyDataDir({ servers: 200, hours: 24, stepS: 15 }, log);
  let database = await openDatabase({ dataDir: history.dataDir });
  try {
    const linux = (await database.query<{ id: string }>(`select id from servers where operating_system = 'linux' order by hostname`)).map((r) => r.id);
    const n = opts.requests;
    if (linux.length < n * 3 + 1) throw new Error(`need ${n * 3 + 1} Linux servers, have ${linux.length}`);
    const [routeServers, rollupServers, rawServers] = [linux.slice(0, n), linux.slice(n, 2 * n), linux.slice(2 * n, 3 * n)];
    const toMs = history.endMs;
    const fromMs = toMs - DAY_MS;

    log('rolling up the seeded day…');
    const rollup = await rollUp(database, history.endMs);
    await database.close();
    database = await openDatabase({ dataDir: history.dataDir });

    // The route first, on a database nothing has read from yet.
    const hash = await hashPassword('bench-password');
    const [admin] = await database.db.insert(users).values({ username: 'bench-chart', email: 'bench-chart@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
    const app = await buildApp(testConfig(), { database });
    let route: { cold: Timing; warm: Timing; stepS: number; points: number };
    try {
      const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
      const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
      let body: { result?: { timestamps: number[]; series: { values: (number | null)[] }[] } } = {};
      const get = async (id: string) => {
        const res = await app.inject({ method: 'GET', url: `/api/servers/chart/${id}?panel=77&from=${fromMs}&to=${toMs}`, headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`);
        body = res.json();
      };
      // One request on a server measured nowhere: the session, the catalog and the plans.
      await get(linux[linux.length - 1]!);
      const cold = await timeEach(routeServers, get);
      const timestamps = body.result?.timestamps ?? [];
      if (!body.result?.series[0]?.values.some((v) => v !== null)) throw new Error(`the chart of ${routeServers[n - 1]} has no data: ${JSON.stringify(body).slice(0, 200)}`);
      const warm = await timeEach(new Array<string>(n).fill(routeServers[0]!), get);
      route = { cold: summary(cold), warm: summary(warm), stepS: (timestamps[1] ?? 0) - (timestamps[0] ?? 0), points: timestamps.length };
    } finally {
      await app.close();
    }

    const store = new MetricStore(database);
    const queryAt = (stepS: number) => async (id: string) => {
      const w = await store.query(id, PANEL_77_KEYS, fromMs, toMs, stepS);
      if (w.values[0]!.every((v) => v === null)) throw new Error(`no data for ${id} at step ${stepS}`);
    };
    const rolled = { cold: summary(await timeEach(rollupServers, queryAt(ROLLUP_STEP_S))), warm: summary(await timeEach(new Array<string>(n).fill(rollupServers[0]!), queryAt(ROLLUP_STEP_S))) };
    const raw = { cold: summary(await timeEach(rawServers, queryAt(RAW_STEP_S))), warm: summary(await timeEach(new Array<string>(n).fill(rawServers[0]!), queryAt(RAW_STEP_S))) };

    const pages = async (table: string, at: string, stepS: number) => {
      const plan = await database.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers) select (floor(extract(epoch from ${at}) / $4) * $4)::float8 as t, avg(values[2])::float8
         from ${table} where server_id = $1 and ${at} >= $2 and ${at} <= $3 group by 1 order by 1`,
        [linux[linux.length - 2], new Date(fromMs), new Date(toMs), stepS],
      );
      return Number(/Heap Blocks: exact=(\d+)/.exec(plan.map((r) => r['QUERY PLAN']).join('\n'))?.[1] ?? NaN);
    };
    return {
      seeded: history.seededNow ? `made in ${history.seedSeconds} s` : 'from the cache',
      rollup,
      route,
      rolled,
      raw,
      heapPages: { rollups: await pages('metric_rollups', 'bucket', ROLLUP_STEP_S), samples: await pages('metric_samples', 'ts', RAW_STEP_S) },
    };
  } finally {
    await database.close();
    history.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runChartQueryBench({ requests: numberOption('--requests', 40) });
  const fmt = (t: Timing) => `p50 ${t.p50Ms} ms, p95 ${t.p95Ms} ms, max ${t.maxMs} ms; CPU p50 ${t.cpuP50Ms} ms, p95 ${t.cpuP95Ms} ms (${t.n} requests)`;
  const ru = r.rollup;
  console.log(`24 h chart, panel 77 (6 series), one server of 200 with 24 h at 15 s; history ${r.seeded} (target < 50 ms); ${machineLoad()}`);
  console.log(`  rollup of the day (MetricStore.rollup, ${ru.buckets} buckets, ${ru.rows} rows): ${ru.seconds} s, ${ru.cpuSeconds} CPU s; event loop held up at most ${ru.stall.worstMs} ms (p99 ${ru.stall.p99Ms} ms, ${ru.stall.over50ms} stalls over 50 ms)`);
  console.log(`  then the database reopened (nothing cached):`);
  console.log(`  GET /api/servers/chart/:id?panel=77, step ${r.route.stepS} s = ${r.route.points} points, cold: ${fmt(r.route.cold)}`);
  console.log(`  GET /api/servers/chart/:id?panel=77, warm:        ${fmt(r.route.warm)}`);
  console.log(`  MetricStore.query step ${ROLLUP_STEP_S} s (rollups), cold:  ${fmt(r.rolled.cold)}`);
  console.log(`  MetricStore.query step ${ROLLUP_STEP_S} s (rollups), warm:  ${fmt(r.rolled.warm)}`);
  console.log(`  MetricStore.query step ${RAW_STEP_S} s (raw samples), cold: ${fmt(r.raw.cold)}`);
  console.log(`  MetricStore.query step ${RAW_STEP_S} s (raw samples), warm: ${fmt(r.raw.warm)}`);
  console.log(`  heap pages one server's day reads: ${r.heapPages.rollups} of metric_rollups (288 rows), ${r.heapPages.samples} of metric_samples (5,760 rows)`);
}
