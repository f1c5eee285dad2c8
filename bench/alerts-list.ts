/**
 * `POST /api/alerts/all` at 100,000 alerts over 1,000 servers, on PGlite and on the local
 * PostgreSQL (each in a database of its own: tests/api/harness.ts `backends()`).
 * Target (issue 4 §8): p95 ≤ 25 ms for each kind of list call the Notifications page and the
 * palette make. Measured through the real app (Fastify inject: routing, session lookup,
 * validation, SQL, serialisation), one request at a time, after warm-up requests.
 *
 * The alerts look like a year of a real fleet's: mostly resolved, 0.5 % firing and 0.2 %
 * snoozed (the open ones recent), created over the last 180 days, denser lately, on the six
 * default rules, with the servers' hostnames, addresses and (for service alerts) services, and
 * the summaries the evaluator writes (server/alerting/describe.ts: no per-alert figures).
 */
import type { FastifyInstance } from 'fastify';
import { AlertEvaluator } from '../server/alerting/evaluator';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import type { Database } from '../server/db/client';
import { users } from '../server/db/schema';
import { backends } from '../tests/api/harness';
import { cpuMeter, type CpuMeter } from './lib/cpu';
import { machineLoad, numberOption } from './lib/options';
import { typedLoad, type TypedResult } from './lib/typed';

const ALERTS_OPTION = numberOption('--alerts', 100_000);
const SERVERS_DEFAULT = 1000;
const ALERTS = ALERTS_OPTION;
const SERVERS = SERVERS_DEFAULT;
const RUNS = numberOption('--runs', 40);
const WARMUP = 5;
export const NOW = Date.parse('2026-06-01T12:00:00Z');
export const DAY = 86_400_000;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function seedAlerts(database: Database, size: { alerts?: number; servers?: number } = {}): Promise<void> {
  const ALERTS = size.alerts ?? ALERTS_OPTION;
  const SERVERS = size.servers ?? SERVERS_DEFAULT;
  const q = (text: string, params?: unknown[]) => database.query(text, params);
  const roles = `array['web','api','db','cache','worker','edge','log','mq','ci','win-iis','win-sql','win-ad']`;
  await q(
    `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, state, cpu_usage, memory_usage, disk_usage)
     select (${roles})[1 + g % 12] || '-' || lpad((g / 12 + 1)::text, 3, '0') || '.' || (array['prod','staging','eu1','us2'])[1 + g % 4] || '.example.net',
            '10.' || (g / 250) || '.' || (g % 250) || '.' || (1 + g % 7), 9100, case when g % 12 >= 9 then 'windows' else 'linux' end, true, 'up', 20, 40, 50
     from generate_series(0, ${SERVERS - 1}) g`,
  );
  // Everything else the evaluator would have created: each server's rules, so alerts carry rule ids.
  await new AlertEvaluator(database, { enabled: false, evalIntervalS: 15, autoDefaults: true, staleAfterS: 60 }, { info() {}, warn() {}, error() {} }, () => NOW).ensureDefaults();
  // Alert g: server g % 1000, rule g % 6; created `age` ago, age skewed towards now (power 2 over
  // 180 days), newest first among the open ones: firing and snoozed are the latest ~0.7 %.
  // Open alerts are unique per (server, rule, subject): subject is the alert's own number for
  // the few that are open, so the partial unique index holds.
  await q(
    `with numbered as (select (row_number() over (order by hostname) - 1)::int as n, id, hostname, ipaddress from servers),
     seeded as (
       select g, s.id as server_id, s.hostname, s.ipaddress, r.id as rule_id, r.name, r.type, r.severity, r.metric,
              case when g <= ${Math.round(ALERTS * 0.005)} then 'firing' when g <= ${Math.round(ALERTS * 0.007)} then 'snoozed' else 'resolved' end as status,
              $1::timestamptz - make_interval(secs => (180 * 86400) * power(g::float8 / ${ALERTS}, 2) + (g % 600)) as created_at,
              (array['nginx','redis-server','postgresql@15-main','w3svc','mssqlserver','docker'])[1 + (g / 6) % 6] as service
       from generate_series(1, ${ALERTS}) g
       join numbered s on s.n = (g::bigint * 7919) % ${SERVERS}
       join alert_rules r on r.server_id = s.id and r.position = g % 6
     )
     insert into alerts (server_id, rule_id, subject, hostname, instance, alertname, description, type, severity, status, summary, mountpoint, service, value, created_at, updated_at, resolved_at, snoozed_until)
     select server_id, rule_id, case when status = 'resolved' then '' else 'bench-' || g end, hostname, ipaddress, name,
            'Seeded alert ' || g || ': usage is **' || (86 + g % 13) || '.0%**', type, severity, status,
            -- The summaries server/alerting/describe.ts writes (the value goes in the description).
            case metric when 'service_down' then 'Service ' || service || ' is down on ' || hostname
                        when 'instance_down' then hostname || ' is down'
                        when 'cpu' then 'High CPU usage on ' || hostname
                        when 'memory' then 'High memory usage on ' || hostname
                        else case when severity = 'critical' then 'Disk almost full' else 'High disk usage' end || ' on ' || hostname end,
            case when metric = 'disk' then '/' end, case when metric = 'service_down' then service end,
            case when metric in ('cpu', 'memory', 'disk') then 86 + g % 13 end,
            created_at, created_at + interval '10 minutes',
            case when status = 'resolved' then created_at + make_interval(secs => 300 + g % 7200) end,
            case when status = 'snoozed' then $1::timestamptz + interval '1 hour' end
     from seeded`,
    [new Date(NOW).toISOString()],
  );
  await q('vacuum analyze alerts');
}

export interface Case {
  name: string;
  body: () => Record<string, unknown>;
}

/** Every kind of list call the Notifications page and the palette make, needles and servers rotating. */
export function alertCases(servers: { id: string }[]): Case[] {
  let k = 0;
  const pick = <T>(xs: T[]) => xs[k++ % xs.length]!;
  const iso = (ms: number) => new Date(ms).toISOString();
  const page1 = { pageNumber: 1, pageSize: 25 };
  const firing = { by: 'firing', direction: 'desc' };
  return [
    { name: 'unfiltered, first page', body: () => page1 },
    { name: 'status firing', body: () => ({ ...page1, filter: { status: 'firing' } }) },
    { name: 'status firing or snoozed', body: () => ({ ...page1, filter: { status: ['firing', 'snoozed'] } }) },
    { name: 'status resolved', body: () => ({ ...page1, filter: { status: 'resolved' } }) },
    { name: 'hostname contains', body: () => ({ ...page1, filter: { hostname: { contains: pick(['web-0', 'db-01', 'cache-04', 'sql-0', 'eu1', 'api-07.prod']) } } }) },
    { name: 'createdAt between (last 7 days)', body: () => ({ ...page1, filter: { createdAt: { between: [iso(NOW - 7 * DAY), iso(NOW)] } } }) },
    {
      name: 'createdAt between (one day, 3 months ago)',
      body: () => {
        const from = NOW - (90 + pick([0, 1, 2, 3])) * DAY;
        return { ...page1, filter: { createdAt: { between: [iso(from), iso(from + DAY)] } } };
      },
    },
    { name: 'status firing + last 7 days', body: () => ({ ...page1, filter: { status: 'firing', createdAt: { between: [iso(NOW - 7 * DAY), iso(NOW)] } } }) },
    { name: 'serverId', body: () => ({ ...page1, filter: { serverId: pick(servers).id } }) },
    { name: 'serverId + last 30 days', body: () => ({ ...page1, filter: { serverId: pick(servers).id, createdAt: { between: [iso(NOW - 30 * DAY), iso(NOW)] } } }) },
    { name: 'status firing + hostname contains + date range', body: () => ({ ...page1, filter: { status: 'firing', hostname: { contains: pick(['web', 'db-0', 'prod']) }, createdAt: { between: [iso(NOW - 30 * DAY), iso(NOW)] } } }) },
    { name: 'search', body: () => ({ ...page1, search: pick(['redis', 'disk', 'web-01', '10.2.', 'is down', 'mssql']) }) },
    { name: 'deep page (page 400, unfiltered)', body: () => ({ pageNumber: 400, pageSize: 25 }) },
    { name: 'deep page (page 100, status resolved)', body: () => ({ pageNumber: 100, pageSize: 25, filter: { status: 'resolved' } }) },
    // Issue 24 §2: what the Notifications page opens on, and a server's tab, with the sort `firing`.
    { name: 'sort firing, first page', body: () => ({ ...page1, sort: firing }) },
    { name: 'sort firing, page across the boundary', body: () => ({ pageNumber: 21, pageSize: 24, sort: firing }) },
    { name: 'sort firing + serverId', body: () => ({ ...page1, sort: firing, filter: { serverId: pick(servers).id } }) },
    { name: 'sort firing + hostname contains', body: () => ({ ...page1, sort: firing, filter: { hostname: { contains: pick(['web-0', 'db-01', 'cache-04', 'sql-0', 'eu1', 'api-07.prod']) } } }) },
    { name: 'sort firing + last 7 days', body: () => ({ ...page1, sort: firing, filter: { createdAt: { between: [iso(NOW - 7 * DAY), iso(NOW)] } } }) },
  ];
}

export interface CaseResult {
  p50: number;
  p95: number;
  max: number;
  cpuP50: number;
  cpuP95: number;
  count: string;
}

/** One case, `runs` requests one at a time after WARMUP, through the app: wall time and CPU per request. */
export async function measureCase(app: FastifyInstance, cookie: string, meter: CpuMeter, url: string, c: Case, runs: number): Promise<CaseResult> {
  const times: number[] = [];
  const cpus: number[] = [];
  let count = '';
  for (let i = 0; i < runs + WARMUP; i++) {
    const payload = c.body();
    const stop = await meter.start();
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url, headers: { cookie, 'x-requested-with': 'opsdeck' }, payload });
    const ms = performance.now() - started;
    const cpu = await stop();
    if (res.statusCode !== 200) throw new Error(`${c.name}: ${res.statusCode} ${res.body}`);
    const body = JSON.parse(res.body) as { result: { count: number; countEstimated?: boolean } };
    count = `${body.result.countEstimated ? '~' : ''}${body.result.count}`;
    if (i >= WARMUP) {
      times.push(ms);
      cpus.push(cpu);
    }
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { p50: r1(pct(times, 50)), p95: r1(pct(times, 95)), max: r1(times[times.length - 1]!), cpuP50: r1(pct(cpus, 50)), cpuP95: r1(pct(cpus, 95)), count };
}

export async function runAlertsListBench() {
  const only = process.argv.includes('--backend') ? process.argv[process.argv.indexOf('--backend') + 1] : undefined;
  const results: { backend: string; seedS: number; cases: Record<string, CaseResult>; typed: { name: string; results: TypedResult[] }[] }[] = [];
  for (const backend of (await backends()).filter((b) => !only || b.name === only)) {
    const { database, drop } = await backend.open();
    try {
      const t0 = performance.now();
      await seedAlerts(database);
      const seedS = r1((performance.now() - t0) / 1000);
      const hash = await hashPassword('bench-password');
      const [admin] = await database.db.insert(users).values({ username: 'bench-admin', email: 'bench-admin@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
      const app = await buildApp(testConfig(), { database });
      const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
      const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
      const servers = await database.query<{ id: string; hostname: string }>('select id, hostname from servers order by hostname');
      const page1 = { pageNumber: 1, pageSize: 25 };
      const meter = await cpuMeter(database);
      const out: (typeof results)[number]['cases'] = {};
      for (const c of alertCases(servers)) out[c.name] = await measureCase(app, cookie, meter, '/api/alerts/all', c, RUNS);
      // What people type (issue 17 §4): 1-4 characters of a hostname or of the search, one
      // client and then 8 at once.
      const typed = [
        { name: 'hostname contains, typed', results: await typedLoad(app, cookie, '/api/alerts/all', ['web-', 'db-0', 'cach', 'win-'], (needle) => ({ ...page1, filter: { hostname: { contains: needle } } }), Math.max(3, Math.round(RUNS / 8)), meter) },
        { name: 'search, typed', results: await typedLoad(app, cookie, '/api/alerts/all', ['redi', 'disk', 'is d', 'mssq'], (needle) => ({ ...page1, search: needle }), Math.max(3, Math.round(RUNS / 8)), meter) },
      ];
      await app.close();
      results.push({ backend: backend.name, seedS, cases: out, typed });
    } finally {
      await drop();
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runAlertsListBench();
  console.log(`POST /api/alerts/all at ${ALERTS} alerts over ${SERVERS} servers, ${RUNS} requests per case (target p95 ≤ 25 ms); ${machineLoad()}`);
  for (const r of results) {
    console.log(`  ${r.backend} (seeded in ${r.seedS} s)${r.backend === 'postgres' ? '; CPU is this process plus the PostgreSQL backends' : '; CPU is this process, PGlite included'}:`);
    for (const [name, c] of Object.entries(r.cases)) console.log(`    ${name.padEnd(48)} p50 ${String(c.p50).padStart(6)} ms  p95 ${String(c.p95).padStart(6)} ms  max ${String(c.max).padStart(6)} ms | CPU p50 ${String(c.cpuP50).padStart(6)} ms  p95 ${String(c.cpuP95).padStart(6)} ms  (${c.count} matches)`);
    for (const t of r.typed) {
      console.log(`    ${t.name}:`);
      for (const x of t.results) console.log(`      ${x.label.padEnd(26)} p50 ${String(x.p50).padStart(6)} ms  p95 ${String(x.p95).padStart(6)} ms  max ${String(x.max).padStart(6)} ms  ${x.counts}`);
    }
  }
}
