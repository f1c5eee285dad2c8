/**
 * A 24 h chart query for one panel (77, CPU Basic: six series) of one server among 200 that
 * each hold 24 h of scrapes at 15 s (1.15 M rows, bench/lib/history.ts). Target (issue 3 §9):
 * under 50 ms.
 *
 * Measured two ways on the same PGlite data folder, one request at a time:
 *  - MetricStore.query, at the step the chart route picks for 24 h when it is given none
 *    (about 300 points: 288 s);
 *  - `GET /api/servers/chart/:id?panel=77&from&to` through the real app (Fastify inject:
 *    routing, session, validation, panel lookup, the query, serialisation).
 * "Cold" rotates over different servers, so each request reads pages PGlite has not cached yet
 * (opening a server's charts); "warm" repeats one server (refreshing them).
 * It then builds a 5-minute rollup of the same rows in a scratch table and times the same
 * chart from it, the fix this benchmark led to (see docs/benchmarks.md).
 *
 * `npx tsx bench/chart-query.ts [--requests 50]`
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
/** What Monitoring.defaultStep gives 24 h at a 15 s scrape interval: about 300 points. */
const STEP_S = Math.max(15, Math.ceil(DAY_MS / 1000 / 300));

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

/**
 * The proposed fix, measured: a table of 5-minute averages per server (what MetricStore would
 * write as each 5-minute bucket closes), filled here in time order as the console would write
 * it, then the same chart read from it.
 */
async function buildRollup(database: Database): Promise<number> {
  const t0 = performance.now();
  await database.query('create table bench_rollup_5m (server_id uuid not null, bucket timestamptz not null, values real[] not null, primary key (server_id, bucket))');
  // Stand-in values: the sample at each bucket's start (an element-wise average of 20 arrays has
  // the same width and storage, and costs minutes to compute in PGlite). Written in bucket
  // order, so rows land on disk as a live console would write them, all servers interleaved.
  await database.query(`
    insert into bench_rollup_5m (server_id, bucket, values)
    select server_id, ts, values from metric_samples
    where extract(epoch from ts)::bigint % 300 = 0
    order by ts, server_id`);
  await database.query('analyze bench_rollup_5m');
  return Math.round((performance.now() - t0) / 100) / 10;
}

async function rollupQuery(database: Database, store: MetricStore, serverId: string, fromMs: number, toMs: number): Promise<number> {
  const keys = await store.keys(serverId);
  const cols = PANEL_77_KEYS.map((k) => keys.indexOf(k)).filter((c) => c >= 0);
  const rows = await database.query(
    `select extract(epoch from bucket)::float8 as t, ${cols.map((c, j) => `values[${c + 1}]::float8 as v${j}`).join(', ')}
     from bench_rollup_5m where server_id = $1 and bucket >= $2 and bucket <= $3 order by bucket`,
    [serverId, new Date(fromMs), new Date(toMs)],
  );
  return rows.length;
}

export async function runChartQueryBench(opts: { requests: number; rollup: boolean }, log = console.log) {
  const history = await historyDataDir({ servers: 200, hours: 24, stepS: 15 }, log);
  const database = await openDatabase({ dataDir: history.dataDir });
  try {
    const linux = (await database.query<{ id: string }>(`select id from servers where operating_system = 'linux' order by hostname`)).map((r) => r.id);
    if (linux.length < opts.requests * 2) throw new Error(`need ${opts.requests * 2} Linux servers, have ${linux.length}`);
    const toMs = history.endMs;
    const fromMs = toMs - DAY_MS;
    const store = new MetricStore(database);
    let points = 0;
    const storeCold = await timeEach(linux.slice(0, opts.requests), async (id) => {
      const w = await store.query(id, PANEL_77_KEYS, fromMs, toMs, STEP_S);
      points = w.timestamps.length;
      if (w.values[0]!.every((v) => v === null)) throw new Error(`no data for ${id}`);
    });
    const storeWarm = await timeEach(new Array<string>(opts.requests).fill(linux[0]!), async (id) => {
      await store.query(id, PANEL_77_KEYS, fromMs, toMs, STEP_S);
    });
    const plan = await database.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) select (floor(extract(epoch from ts) / $4) * $4)::float8 as t, avg(values[2])::float8
       from metric_samples where server_id = $1 and ts >= $2 and ts <= $3 group by 1 order by 1`,
      [linux[opts.requests * 2 - 1], new Date(fromMs), new Date(toMs), STEP_S],
    );
    const planText = plan.map((r) => r['QUERY PLAN']).join('\n');
    const heapBlocks = Number(/Heap Blocks: exact=(\d+)/.exec(planText)?.[1] ?? NaN);

    // The HTTP route, once it exists in this checkout.
    const hash = await hashPassword('bench-password');
    const [admin] = await database.db.insert(users).values({ username: 'bench-chart', email: 'bench-chart@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
    const app = await buildApp(testConfig(), { database });
    let route: { cold: Timing; warm: Timing } | { missing: string };
    try {
      const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
      const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
      const get = async (id: string) => {
        const res = await app.inject({ method: 'GET', url: `/api/servers/chart/${id}?panel=77&from=${fromMs}&to=${toMs}`, headers: { cookie } });
        if (res.statusCode !== 200) throw Object.assign(new Error(`HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`), { status: res.statusCode });
      };
      try {
        await get(linux[opts.requests]!);
        const cold = await timeEach(linux.slice(opts.requests + 1, opts.requests * 2 + 1), get);
        const warm = await timeEach(new Array<string>(opts.requests).fill(linux[opts.requests]!), get);
        route = { cold: summary(cold), warm: summary(warm) };
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
        route = { missing: (error as Error).message };
      }
    } finally {
      await app.close();
    }

    let rollup: { buildSeconds: number; cold: Timing; warm: Timing; rows: number } | undefined;
    if (opts.rollup) {
      const buildSeconds = await buildRollup(database);
      let rows = 0;
      // Servers none of the runs above touched, so their pages are not cached yet.
      const fresh = linux.slice(opts.requests * 2 + 1).concat(linux).slice(0, opts.requests);
      const cold = await timeEach(fresh, async (id) => {
        rows = await rollupQuery(database, store, id, fromMs, toMs);
      });
      const warm = await timeEach(new Array<string>(opts.requests).fill(linux[0]!), async (id) => {
        await rollupQuery(database, store, id, fromMs, toMs);
      });
      rollup = { buildSeconds, cold: summary(cold), warm: summary(warm), rows };
    }
    return {
      seeded: history.seededNow ? `made in ${history.seedSeconds} s` : 'from the cache',
      stepS: STEP_S,
      points,
      store: { cold: summary(storeCold), warm: summary(storeWarm) },
      heapBlocksPerQuery: heapBlocks,
      route,
      rollup,
      planText,
    };
  } finally {
    await database.close();
    history.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runChartQueryBench({ requests: numberOption('--requests', 50), rollup: !process.argv.includes('--no-rollup') });
  const fmt = (t: Timing) => `p50 ${t.p50Ms} ms, p95 ${t.p95Ms} ms, max ${t.maxMs} ms; CPU p50 ${t.cpuP50Ms} ms, p95 ${t.cpuP95Ms} ms (${t.n} requests)`;
  console.log(`24 h chart, panel 77 (6 series), one server of 200 with 24 h at 15 s; step ${r.stepS} s = ${r.points} points; history ${r.seeded} (target < 50 ms); ${machineLoad()}`);
  console.log(`  MetricStore.query, cold (a new server each time): ${fmt(r.store.cold)}`);
  console.log(`  MetricStore.query, warm (the same server again):  ${fmt(r.store.warm)}`);
  if ('missing' in r.route) console.log(`  GET /api/servers/chart/:id: not measured, the route is not there yet (${r.route.missing})`);
  else {
    console.log(`  GET /api/servers/chart/:id?panel=77, cold:        ${fmt(r.route.cold)}`);
    console.log(`  GET /api/servers/chart/:id?panel=77, warm:        ${fmt(r.route.warm)}`);
  }
  console.log(`  one query reads ${r.heapBlocksPerQuery} heap pages for 5,760 rows: each server's rows are spread over the table, interleaved with the other servers'`);
  if (r.rollup) {
    console.log(`  with a 5-minute rollup table (${r.rollup.rows} rows per 24 h chart; built from the samples in ${r.rollup.buildSeconds} s):`);
    console.log(`    cold: ${fmt(r.rollup.cold)}`);
    console.log(`    warm: ${fmt(r.rollup.warm)}`);
  }
  if (process.argv.includes('--plan')) console.log(r.planText);
}
